export type {
  ScimStore,
  StoreCapabilities,
  StoreQuery,
  StoreQueryResult,
  StoreWriteResult,
  StoreDeleteResult,
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
export type { MemoryStoreOptions } from './memory-store.js';
export { StoreUnavailableError, isStoreUnavailable } from './store-unavailable.js';
export type { StoreUnavailableOptions } from './store-unavailable.js';
