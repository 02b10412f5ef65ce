export { createConsole, CONSOLE_CSP } from './create-console.js';
export type { ScimConsole } from './create-console.js';
export type { ConsoleOptions, ConsoleAuthorize, ConsoleLogin } from './console-options.js';
export { passwordLogin } from './password-login.js';
export type { ConsoleDeliveries, ConsoleDelivery, ConsoleDeliveryAttempt, ConsoleDeliveryState, ConsoleDeadLetter } from './webhook-deliveries.js';
