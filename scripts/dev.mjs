// npm run dev: the reference server (restarting on change) and the Vite dev server, which proxies the API to it.
import { spawn } from 'node:child_process';

// Sign-in redirects come back through the Vite origin, which forwards them to the server.
const serverEnv = { PUBLIC_URL: 'http://localhost:5173', ...process.env };
const children = [
  spawn('node', ['--import', 'tsx', '--watch', 'server/main.ts'], { stdio: 'inherit', env: serverEnv }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: { ...process.env, API_URL: `http://localhost:${process.env.PORT ?? 3000}` } }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
