import { createApp } from './create-app.js';

/** `SCIM_TOKEN=secret npm start`: the app at http://$HOST:$PORT, SCIM under /scim/v2. */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 3000);
const scimToken = process.env['SCIM_TOKEN'];
if (scimToken === undefined || scimToken === '') {
  console.error('Set SCIM_TOKEN to the bearer token your identity provider will send.');
  process.exit(1);
}

const { app } = createApp({ scimToken });
const server = app.listen(port, host, () => {
  console.log(`Koa app listening at http://${host}:${port} (SCIM at http://${host}:${port}/scim/v2)`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
