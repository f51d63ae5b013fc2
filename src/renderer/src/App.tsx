import { useEffect, useRef } from 'react';
import { getBridge, onCallError, onHostConnection, onLeadRequired } from './bridge';
import { useStation } from './store';
import { warmZplRenderer } from './lib/zpl-render';
import { useToastBelowHeader } from './lib/toast-place';
import { views, type ViewId } from './store/nav';
import { Header } from './views/Header';
import { PackView } from './views/Pack';
import { AttentionView } from './views/Attention';
import { QueueView } from './views/Queue';
import { HistoryView } from './views/History';
import { TrackingView } from './views/Tracking';
import { CarriersView } from './views/Carriers';
import { SettingsView } from './views/Settings';
import { OrdersView } from './views/OrdersView';
import { EndOfDayView } from './views/EndOfDay';
import { SiteConsole } from './views/site/SiteConsole';
import { LeadApproval, SignInScreen } from './views/site/SignIn';
import { useSession } from './store/session';
import { redrawReimported } from './store/pack-reimport';
import { rerateLapsed } from './store/pack-lapsed';

export function App() {
  const view = useStation((s) => s.view);
  const go = useStation((s) => s.go);
  const toast = useStation((s) => s.toast);
  useToastBelowHeader();
  const session = useSession((s) => s.session);
  const main = useRef<HTMLElement>(null);

  // A view that gives none of its fields the keyboard (Needs attention, Queue, Settings…) takes
  // it itself: Tab goes on from the view, and a screen reader says which view it is.
  useEffect(() => {
    const t = setTimeout(() => {
      const at = document.activeElement;
      if (!at || at === document.body || at.closest('nav.tabs')) main.current?.focus();
    }, 0);
    return () => clearTimeout(t);
  }, [view]);

  useEffect(() => {
    const bridge = getBridge();
    const s = useStation.getState();
    void s.refreshStatus();
    void s.loadSettings();
    void useSession.getState().load();
    // The label renderer loads while the station opens, not after the first purchase.
    const warm = setTimeout(() => void warmZplRenderer(), 300);
    // The box presets the settings were read under: another one (site IT changed the site's
    // presets) reads them again, so Pack's buttons are the station's boxes now.
    let boxPresets: string | undefined;
    // Every event carries what changed: the page shows it as it comes, nothing polls.
    const offs = [
      bridge.on('status', (status) => {
        useStation.getState().setStatus(status);
        if (status.boxPresets !== undefined) {
          if (boxPresets !== undefined && boxPresets !== status.boxPresets)
            void useStation.getState().loadSettings();
          boxPresets = status.boxPresets;
        }
        // Users set up (or gone) since the page read its session: sign-in shows (or goes).
        const session = useSession.getState().session;
        if (
          session &&
          ((status.signInRequired !== undefined && status.signInRequired !== session.required) ||
            // Signed out by the station (its user disabled by site IT): sign-in says why.
            (status.signedInUserId !== undefined &&
              status.signedInUserId !== (session.user?.userId ?? null)))
        )
          void useSession.getState().load();
      }),
      bridge.on('queue-changed', (queue) => {
        useStation.setState({ queue });
        // A batch on screen says how many of its labels wait for a printer: read it again as
        // print jobs (or the offline queue) move.
        if (useStation.getState().batch) void useStation.getState().loadBatches();
      }),
      bridge.on('attention-changed', ({ items }) => useStation.setState({ attention: items })),
      bridge.on('carriers-changed', ({ accounts }) => {
        useStation.setState({ carriers: accounts });
        // Rates on Pack from an account that has since lapsed: rated again, and said why.
        void rerateLapsed(accounts);
      }),
      bridge.on('labels-changed', ({ labels }) => {
        const st = useStation.getState();
        // Only the page on screen is asked for again, where it starts now.
        if (st.view === 'history') void st.searchLabels(st.history.offset);
        // Pack's QUEUED order, bought by the offline queue, shows its label.
        st.labelsStored(labels);
      }),
      bridge.on('tracking-changed', (change) => {
        const st = useStation.getState();
        if (st.view === 'tracking') void st.trackersChanged(change);
      }),
      bridge.on('batch-progress', (batch) => {
        const st = useStation.getState();
        st.setBatch(batch);
        if (st.view === 'orders') void st.loadOrders();
      }),
      bridge.on('orders-changed', (change) => {
        const st = useStation.getState();
        if (st.view === 'orders') void st.loadOrders();
        // An import (not a purchase's status change) may have changed the order on Pack.
        if (change.fileName !== null || change.imported > 0) void redrawReimported();
      }),
      // Issue 14: an action that needs a lead opens the approval (and is made again once a
      // lead approves); a lost sign-in shows sign-in.
      onLeadRequired((message) => useSession.getState().askLead(message)),
      onCallError((e) => {
        if (e.code === 'sign-in-required') void useSession.getState().load();
      }),
      onHostConnection((c) => {
        useStation.getState().setHostConnected(c);
        // Back after a drop (the web host's socket): events sent meanwhile are lost, so the
        // header and the page on screen are asked for once.
        if (c) void refetchAfterReconnect();
      }),
    ];
    return () => {
      offs.forEach((off) => off());
      clearTimeout(warm);
    };
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey) {
        const target = views.find((v) => v.key === e.key || e.code === `Digit${v.key}`);
        if (target) {
          e.preventDefault();
          go(target.id);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);

  // `npm run web -- --console`: the shift-lead console only, no packing, printer or scanner.
  if (session?.consoleOnly)
    return (
      <div className="app">
        <Header />
        <main className="content">
          <SiteConsole />
        </main>
      </div>
    );
  return (
    <div className="app">
      {session?.required && !session.user ? <SignInScreen /> : null}
      <LeadApproval />
      <Header />
      <nav className="tabs" aria-label="Views">
        {views.map((v) => (
          <button
            key={v.id}
            className={v.id === view ? 'tab active' : 'tab'}
            aria-current={v.id === view ? 'page' : undefined}
            onClick={() => go(v.id)}
          >
            {v.label} <kbd>Alt+{v.key}</kbd>
          </button>
        ))}
      </nav>
      <main
        className="content"
        ref={main}
        tabIndex={-1}
        aria-label={views.find((v) => v.id === view)?.label}
      >
        {renderView(view)}
      </main>
      <div className="toast-area" role="status" aria-live="polite">
        {toast ? (
          <div className={`toast ${toast.kind}`} data-testid="toast">
            {toast.text}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** What a missed event could have left stale: the header and the list on screen. */
async function refetchAfterReconnect(): Promise<void> {
  const st = useStation.getState();
  await Promise.all([
    st.refreshStatus(),
    st.view === 'queue' ? st.loadQueue() : null,
    st.view === 'attention' ? st.loadAttention() : null,
    st.view === 'tracking' ? st.loadTracking() : null,
    st.view === 'carriers' ? st.loadCarriers(false) : null,
  ]);
}

function renderView(view: ViewId) {
  switch (view) {
    case 'pack':
      return <PackView />;
    case 'attention':
      return <AttentionView />;
    case 'queue':
      return <QueueView />;
    case 'history':
      return <HistoryView />;
    case 'tracking':
      return <TrackingView />;
    case 'carriers':
      return <CarriersView />;
    case 'settings':
      return <SettingsView />;
    case 'orders':
      return <OrdersView />;
    case 'endofday':
      return <EndOfDayView />;
    case 'site':
      return <SiteConsole />;
    default: {
      const never: never = view;
      return never;
    }
  }
}
