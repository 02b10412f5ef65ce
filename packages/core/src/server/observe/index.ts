export type { RequestContext, RequestEvent, ResponseEvent } from './request-context.js';
export type { ScimLogger, ScimLogRecord, ScimLogLevel } from './scim-logger.js';
export type { ScimTracing, TracerLike, SpanLike, ContextLike } from './scim-tracing.js';
export type { TenancyOptions, TenantConfig } from '../tenancy/tenancy-options.js';
export { MAX_REQUEST_ID_LENGTH } from './request-id.js';
export { MAX_TENANT_LENGTH } from '../tenancy/tenancy-options.js';
export type { RecordedRequest, RequestRecorder } from './request-recorder.js';
