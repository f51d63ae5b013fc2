import { useState } from 'react';
import { useStation } from '../store';
import { StationOrders } from './Orders';
import { SiteOrders } from './site/SiteOrders';

/**
 * Orders: this station's (issue 15.2), or with a site store every station's, read from the store
 * (a shift lead looking for an order imported elsewhere).
 */
export function OrdersView() {
  const hasSite = useStation((st) => Boolean(st.status?.site));
  const [scope, setScope] = useState<'station' | 'site'>('station');
  if (hasSite && scope === 'site') return <SiteOrders onStationScope={() => setScope('station')} />;
  return <StationOrders onSiteScope={hasSite ? () => setScope('site') : null} />;
}
