export { createResource } from './create-resource.js';
export { readResource } from './read-resource.js';
export { replaceResource } from './replace-resource.js';
export { patchResource } from './patch-resource.js';
export { deleteResource } from './delete-resource.js';
export { listResources, searchResources } from './list-resources.js';
export { rootSearch } from './root-search.js';
export { resourceResponse } from './resource-response.js';
