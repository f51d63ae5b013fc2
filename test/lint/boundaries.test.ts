// Issue 11 point 5: the layers are lint rules, and a violating import fails `npm run lint`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The no-restricted-imports messages for `code` linted as if it were the file at `path`. */
async function restricted(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const use = (spec: string) => `import * as m from '${spec}';\nexport const x = m;\n`;

describe('boundaries between core modules (no arrow back up)', () => {
  it.each([
    [
      'src/core/printing/fixture.ts',
      '../profiles/profile-schema.js',
      /printing may not import src\/core\/profiles/,
    ],
    [
      'src/core/printing/spool/fixture.ts',
      '../../profiles/profile-schema.js',
      /printing may not import src\/core\/profiles/,
    ],
    ['src/core/queue/fixture.ts', '../packing/types.js', /queue may not import src\/core\/packing/],
    ['src/core/packing/fixture.ts', '../site/link.js', /packing may not import src\/core\/site/],
    [
      'src/core/packing/fixture.ts',
      '../station/errors.js',
      /packing may not import src\/core\/station/,
    ],
    [
      'src/core/orders/fixture.ts',
      '../profiles/json-text.js',
      /orders may not import src\/core\/profiles/,
    ],
    [
      'src/core/storage/fixture.ts',
      '../orders/types.js',
      /storage may not import src\/core\/orders/,
    ],
  ])('%s importing %s is reported', async (path, spec, message) => {
    const messages = await restricted(path, use(spec));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it.each([
    ['src/core/packing/fixture.ts', '../queue/offline-queue-repository.js'],
    ['src/core/packing/fixture.ts', '../profiles/profile-schema.js'],
    ['src/core/site/fixture.ts', '../packing/order-claims.js'],
    ['src/core/printing/spool/fixture.ts', '../../orders/control-characters.js'],
    ['src/core/printing/spool/fixture.ts', '../types.js'],
    ['src/core/station/features/fixture.ts', '../../site/link.js'],
  ])('%s importing %s (downwards) is allowed', async (path, spec) => {
    expect(await restricted(path, use(spec))).toEqual([]);
  });
});

describe('every core module has its place in the graph', () => {
  const modules = readdirSync(join(root, 'src/core'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => name !== 'station');
  // A module left out of coreModuleRanks would get no boundary rule: it could import the facade.
  it.each(modules)('src/core/%s may not import the station facade', async (module) => {
    const messages = await restricted(`src/core/${module}/fixture.ts`, use('../station/index.js'));
    expect(messages).toEqual([
      expect.stringMatching(new RegExp(`src/core/${module} may not import src/core/station`)),
    ]);
  });

  it('a file at the root of src/core still may not import electron', async () => {
    expect(await restricted('src/core/fixture.ts', use('electron'))).toEqual([
      expect.stringMatching(/plain Node/),
    ]);
  });
});

describe('the hosts', () => {
  it('src/main never imports the renderer, the preload script or the web host', async () => {
    for (const spec of [
      '../renderer/src/store/pack.js',
      '../preload/index.js',
      '../web-host/server.js',
    ])
      expect(await restricted('src/main/fixture.ts', use(spec))).toEqual([
        expect.stringMatching(/src\/main never imports the renderer/),
      ]);
    expect(await restricted('src/main/fixture.ts', use('../core/station/index.js'))).toEqual([]);
  });

  it('src/preload imports electron and src/shared only', async () => {
    for (const spec of ['node:fs', '../core/station/index.js', '../main/vault.js', 'zod'])
      expect(await restricted('src/preload/fixture.ts', use(spec))).toEqual([
        expect.stringMatching(/imports only electron and src\/shared/),
      ]);
    expect(await restricted('src/preload/fixture.ts', use('electron'))).toEqual([]);
    expect(await restricted('src/preload/fixture.ts', use('../shared/names.js'))).toEqual([]);
  });

  it('src/core still never imports electron', async () => {
    expect(await restricted('src/core/labels/fixture.ts', use('electron'))).toEqual([
      expect.stringMatching(/plain Node/),
    ]);
  });
});

describe('the renderer asks in the page', () => {
  it("refuses the browser's prompt, confirm and alert (Electron has no window.prompt)", async () => {
    const code = `export function ask() {\n  const a = window.prompt('Name?');\n  if (confirm('Sure?')) alert(a);\n}\n`;
    const [result] = await eslint.lintText(code, {
      filePath: join(root, 'src/renderer/src/views/fixture.tsx'),
    });
    expect(result!.messages.filter((m) => m.ruleId === 'no-alert')).toHaveLength(3);
  });
});
