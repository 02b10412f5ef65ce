import { packageConfig } from '../../tsup.shared.js';

export default packageConfig({ dts: { entry: 'src/index.ts' } });
