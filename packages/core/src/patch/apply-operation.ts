import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { PatchContext, WriteRequest } from './patch-context.js';
import type { PatchOperation } from './patch-operation.js';
import { operationAt } from './operation-at.js';
import { resolvePatchTarget } from './resolve-patch-target.js';
import { writeAttribute } from './write-attribute.js';
import { writeElements } from './write-elements.js';
import { checkSchemasValue, writeExtension, writeResourceValue } from './write-resource-value.js';

/** Applies one SCIM operation to the working copy: resolve its target, then write it. */
export function applyOperation(ctx: PatchContext, operation: PatchOperation): Result<void> {
  const at = operationAt(operation.index);
  const target = resolvePatchTarget(ctx.model, operation.path, ctx.options, at);
  if (!target.ok) return target;
  const req: WriteRequest = { op: operation.op, value: operation.value, hasValue: operation.hasValue, at, explicit: true };
  switch (target.value.kind) {
    case 'resource':
      // RFC 7644 §3.5.2.2: "If 'path' is unspecified, the operation fails ... noTarget".
      if (req.op === 'remove') return err(scimError('noTarget', `${at}: "remove" needs a path (RFC 7644 §3.5.2.2)`));
      return writeResourceValue(ctx, req);
    case 'ignored':
      ctx.options.onIgnored?.(operation.path?.trim() ?? '');
      return ok(undefined);
    case 'schemas':
      if (req.op === 'remove') return err(scimError('mutability', `${at}: "schemas" is derived from the resource's data and cannot be removed`));
      return checkSchemasValue(ctx, req.value, at);
    case 'extension':
      return writeExtension(ctx, target.value, req);
    case 'attribute':
      return writeAttribute(ctx, target.value.resolved, req);
    case 'elements':
      return writeElements(ctx, target.value, req);
  }
}
