/** An embedded sandbox, started in-process by the host (core may not import src/sandbox). */
export interface EmbeddedSandbox {
  baseUrl: string;
  /** Demo credentials of the embedded world: which API client to use, for which tenant. */
  clientId: string;
  clientSecret: string;
  tenantId: string;
  close(): Promise<void>;
}

export type StartSandbox = (options: { dataDir: string }) => Promise<EmbeddedSandbox>;
