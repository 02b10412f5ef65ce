export { answerMe } from './me-endpoint.js';
export type { MeDispatch } from './me-endpoint.js';
