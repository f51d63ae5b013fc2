// Lint is where the layers of DESIGN.md are enforced: core/shared/sandbox are plain Node
// (never electron), the renderer and the shared contract never touch Node, and no layer
// reaches upwards.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const noElectron = {
  paths: [
    {
      name: 'electron',
      message: 'This layer runs in plain Node: electron belongs to src/main and src/preload only.',
    },
  ],
  patterns: [
    {
      group: ['electron/*'],
      message: 'This layer runs in plain Node: electron belongs to src/main only.',
    },
  ],
};

const noNode = {
  paths: [
    ...nodeBuiltins.map((name) => ({
      name,
      message: 'The renderer and the shared contract never import Node.',
    })),
    { name: 'electron', message: 'The renderer talks only to the station bridge.' },
    { name: 'better-sqlite3', message: 'The renderer never touches the database.' },
    { name: 'usb', message: 'Devices belong to src/core.' },
  ],
  patterns: [
    { group: ['node:*'], message: 'The renderer and the shared contract never import Node.' },
  ],
};

const upward = (...layers) =>
  layers.map((layer) => ({
    group: [`**/${layer}/**`, `**/${layer}`],
    message: `Dependencies point downwards only (see DESIGN.md): this file may not import from src/${layer}.`,
  }));

/**
 * The core modules from the top of the graph down. A module may import modules in lower ranks
 * only: never one in its own rank or above (printing never imports profiles, queue never
 * imports packing). Derived from the imports of issue 11; docs/core.md "Module graph".
 */
const coreModuleRanks = [
  ['station'],
  ['site', 'diagnostics'],
  ['packing'],
  ['queue', 'labels', 'tracking', 'logging'],
  ['printing', 'profiles'],
  ['orders', 'platform', 'devices', 'users'],
  ['storage'],
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      'coverage',
      'test-results',
      'playwright-report',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    // Every file of the core (src/core/cli-args.ts too): plain Node, nothing above src/core.
    files: ['src/core/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron.paths,
          patterns: [
            ...noElectron.patterns,
            ...upward('main', 'preload', 'renderer', 'web-host', 'sandbox'),
          ],
        },
      ],
    },
  },
  // One block per core module: the same, and no arrow back up the module graph (docs/core.md
  // "Module graph"). test/lint/boundaries.test.ts fails for a module missing from the ranks.
  ...coreModuleRanks.flatMap((rank, r) =>
    rank.map((module) => ({
      files: [`src/core/${module}/**/*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: noElectron.paths,
            patterns: [
              ...noElectron.patterns,
              ...upward('main', 'preload', 'renderer', 'web-host', 'sandbox'),
              ...coreModuleRanks
                .slice(0, r + 1)
                .flat()
                .filter((other) => other !== module)
                .map((other) => ({
                  regex: `^(\\.\\./)+${other}(/|$)`,
                  message: `src/core/${module} may not import src/core/${other}: core modules import only modules below them (docs/core.md "Module graph").`,
                })),
            ],
          },
        ],
      },
    })),
  ),
  {
    // Electron's main process: the station facade and the hosts' own files, never a page's code.
    files: ['src/main/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(renderer|preload|web-host)(/|$)',
              message:
                'src/main never imports the renderer, the preload script or the web host: it talks to pages over IPC only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The preload script is the bridge's one door: electron's ipcRenderer and the contract's names.
    files: ['src/preload/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!electron$|\\./|(\\.\\./)+shared/)',
              message:
                'The preload script imports only electron and src/shared (the contract): everything else stays in the main process.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/sandbox/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron.paths,
          patterns: [
            ...noElectron.patterns,
            ...upward('core', 'main', 'preload', 'renderer', 'web-host'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noNode.paths,
          patterns: [
            ...noNode.patterns,
            ...upward('core', 'main', 'preload', 'renderer', 'web-host', 'sandbox'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Electron does not implement window.prompt (it returns null) and its alert/confirm block
      // the whole window: the station asks in the page (ConfirmPanel, a field in the row).
      'no-alert': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: noNode.paths,
          patterns: [
            ...noNode.patterns,
            ...upward('core', 'main', 'preload', 'web-host', 'sandbox'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/web-host/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron.paths,
          patterns: [...noElectron.patterns, ...upward('main', 'preload', 'renderer')],
        },
      ],
    },
  },
  prettier,
);
