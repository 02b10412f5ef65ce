import { packageConfig } from '../../tsup.shared.js';

export default packageConfig({
  // Browsers and edge runtimes as well as Node 20: nothing Node-specific in the output.
  platform: 'neutral',
  target: 'es2022',
  // @scimkit/core is a peer: only its printer entry (@scimkit/core/printer), which imports nothing, is used.
  external: ['@scimkit/core', '@scimkit/core/printer'],
});
