export type {
  ScimStore,
  StoreCapabilities,
  StoreQuery,
  StoreQueryResult,
  StoreWriteResult,
  StoreDeleteResult,
  StoreAssignment,
  StoreAssignPrevious,
  StoreAssignResult,
  AssignedValue,
  SortSpec,
  UniqueAttribute,
  WriteContext,
  StoreContext,
  DeleteContext,
  MultiValuedChange,
  ReferenceAttribute,
  ReferenceLookup,
  Referral,
  CascadedChange,
  FilterSemantics,
  FilterDecision,
  AttributeFacts,
} from './scim-store.js';
export { createMemoryStore } from './memory-store.js';
export { nextCounterVersion } from './next-counter-version.js';
export type { MemoryStoreOptions } from './memory-store.js';
export { StoreUnavailableError, isStoreUnavailable } from './store-unavailable.js';
export type { StoreUnavailableOptions } from './store-unavailable.js';
