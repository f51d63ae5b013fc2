// The preload exposes only the station contract (filled in by the hosts work, issue 5).
export {};
