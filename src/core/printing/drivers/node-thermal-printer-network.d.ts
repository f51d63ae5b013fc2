// node-thermal-printer ships types for its main class only; this is the raw network interface
// it uses inside (lib/interfaces/network.js), which the slip path calls directly.
declare module 'node-thermal-printer/lib/interfaces/network.js' {
  export default class Network {
    constructor(host: string, port?: number, options?: { timeout?: number; debug?: boolean });
    isPrinterConnected(): Promise<boolean>;
    execute(buffer: Buffer, options?: { waitForResponse?: boolean }): Promise<Buffer | void>;
  }
}
