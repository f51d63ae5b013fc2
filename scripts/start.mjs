// `npm start`: build and open the Electron app; where the Electron binary is not installed,
// say so plainly and point at the web host, which serves the same station in any browser.
import { spawnSync } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

if (!electronBinary()) {
  console.error(
    [
      'Shipping Station: the Electron binary is not installed on this machine.',
      '',
      '  It is skipped when ELECTRON_SKIP_BINARY_DOWNLOAD=1 is set or the download failed.',
      '  With internet access:   node node_modules/electron/install.js   then   npm start',
      '  Without it, run the same station in your browser:   npm run web',
      '',
    ].join('\n'),
  );
  process.exit(1);
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npx', ['electron-vite', 'build']);
run('npx', ['electron-vite', 'preview', '--skipBuild', ...process.argv.slice(2)]);
