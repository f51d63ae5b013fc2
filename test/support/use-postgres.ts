import { afterAll, beforeAll } from 'vitest';
import { removeCluster, startPostgres, type PostgresCluster } from './postgres.js';

/** One throwaway PostgreSQL cluster for the current test file (beforeAll / afterAll). */
export function usePostgres(): { readonly cluster: PostgresCluster } {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => {
    if (cluster) removeCluster(cluster);
  });
  return {
    get cluster() {
      if (!cluster) throw new Error('usePostgres: the cluster is not running');
      return cluster;
    },
  };
}
