import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  devDependencies: Record<string, string>;
};
const installed = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')) as {
  version: string;
};

describe('the Electron the app is built with', () => {
  it('is one of the three supported majors (45 is the latest as of this release: 43-45)', () => {
    const major = Number(pkg.devDependencies['electron']!.split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(43);
    expect(installed.version.split('.')[0]).toBe(String(major));
  });

  it('npm start without the binary says what to do and never tries to download it', () => {
    const r = spawnSync(process.execPath, ['scripts/start.mjs'], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('the Electron binary is not installed');
    expect(r.stderr).toContain('npm run web');
    expect(r.stdout).not.toContain('Downloading');
  });
});
