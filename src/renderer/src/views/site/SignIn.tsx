import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call } from '../../bridge';
import { useSession } from '../../store/session';
import { useStation } from '../../store';
import './sign-in.css';

/** A badge field a scanner types into (and Enter), or a user name and PIN. */
function Credentials(props: {
  submitLabel: string;
  onSubmit(c: { badge?: string; userId?: string; pin?: string }): Promise<string | null>;
  testId: string;
}) {
  const badgeRef = useRef<HTMLInputElement>(null);
  const [badge, setBadge] = useState('');
  const [userId, setUserId] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => badgeRef.current?.focus(), []);
  async function submit(e: FormEvent, c: { badge?: string; userId?: string; pin?: string }) {
    e.preventDefault();
    setBusy(true);
    const problem = await props.onSubmit(c);
    setBusy(false);
    setError(problem);
    if (problem) {
      setBadge('');
      setPin('');
      badgeRef.current?.focus();
    }
  }
  return (
    <div className="credentials" data-testid={props.testId}>
      <form onSubmit={(e) => void submit(e, { badge })}>
        <label>
          Scan your badge
          <input
            ref={badgeRef}
            value={badge}
            onChange={(e) => setBadge(e.target.value)}
            autoComplete="off"
            data-testid="badge-input"
          />
        </label>
      </form>
      <p className="muted">or</p>
      <form className="pin-form" onSubmit={(e) => void submit(e, { userId, pin })}>
        <label>
          User name
          <input
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            autoComplete="off"
            data-testid="user-id-input"
          />
        </label>
        <label>
          PIN
          <input
            type="password"
            inputMode="numeric"
            value={pin}
            onChange={(e) => setPin(e.target.value)}
            autoComplete="off"
            data-testid="pin-input"
          />
        </label>
        <button type="submit" disabled={busy || !userId || !pin}>
          {props.submitLabel}
        </button>
      </form>
      {error ? (
        <p className="error" role="alert" data-testid="credentials-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The whole screen until someone signs in (only where users are set up). */
export function SignInScreen() {
  const setSession = useSession((s) => s.setSession);
  // Signed out by the station (site IT disabled the user): said, so nobody wonders why.
  const signedOut = useSession((s) => s.session?.signedOut ?? null);
  // Which station this is: a packer walking up reads where they are signing in.
  const where = useStation((s) => {
    const p = s.status?.profile;
    if (!p) return null;
    return [p.name, p.siteName ?? p.shippingSiteId].filter(Boolean).join(' · ');
  });
  return (
    <div className="sign-in-screen" data-testid="sign-in">
      <h1>Sign in to pack</h1>
      {where ? (
        <p className="muted" data-testid="sign-in-station">
          {where}
        </p>
      ) : null}
      {signedOut ? (
        <p className="banner" data-testid="signed-out">
          {signedOut}
        </p>
      ) : null}
      <Credentials
        submitLabel="Sign in"
        testId="sign-in-form"
        onSubmit={async (c) => {
          const r = await call('users.signIn', c);
          if (!r.ok) return r.error.message;
          setSession(r.value);
          return null;
        }}
      />
    </div>
  );
}

/** Asked for when an action needs a shift lead: the lead scans their badge here. */
export function LeadApproval() {
  const prompt = useSession((s) => s.leadPrompt);
  const close = useSession((s) => s.closeLead);
  const setSession = useSession((s) => s.setSession);
  const notify = useStation((s) => s.notify);
  useEffect(() => {
    // Esc closes the approval and nothing else: taken before the views' own keys (capture), so
    // Pack keeps the order, its rates and the refusal on screen ("the action stays refused").
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !useSession.getState().leadPrompt) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      close();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [close]);
  if (!prompt) return null;
  return (
    <div className="modal-backdrop">
      <div className="modal lead-approval" role="dialog" aria-label="Shift lead approval">
        <h2>Shift lead approval</h2>
        <p data-testid="lead-prompt">{prompt}</p>
        <Credentials
          submitLabel="Approve"
          testId="lead-form"
          onSubmit={async (c) => {
            const r = await call('users.approve', c);
            if (!r.ok) return r.error.message;
            setSession(r.value);
            // The action asked for is made again at once (bridge's call): said as approved.
            notify('ok', `Approved by ${r.value.approvalBy}.`);
            close(true);
            return null;
          }}
        />
        <button className="link" onClick={() => close()}>
          Cancel (Esc)
        </button>
      </div>
    </div>
  );
}

/** In the header: who is packing, and Sign out. */
export function SessionBadge() {
  const session = useSession((s) => s.session);
  const setSession = useSession((s) => s.setSession);
  if (!session?.required || !session.user) return null;
  return (
    <div className="packing-user" data-testid="packing-user">
      <span className="muted">Packing:</span> <b>{session.user.name}</b>
      {session.user.role === 'lead' ? <span className="chip on">lead</span> : null}
      <button
        className="link"
        onClick={() =>
          void call('users.signOut', {}).then((r) => {
            if (r.ok) setSession(r.value);
          })
        }
      >
        Sign out
      </button>
    </div>
  );
}
