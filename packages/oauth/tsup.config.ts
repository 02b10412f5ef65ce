import { packageConfig } from '../../tsup.shared.js';

export default packageConfig({ entry: ['src/index.ts', 'src/cli.ts'], dts: { entry: 'src/index.ts' } });
