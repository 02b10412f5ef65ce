// `@koa/router-13`, `-14` and `-15` are npm aliases (`npm:@koa/router@13`, …) used to test each
// route syntax; @types/koa__router describes the shape the tests use.
declare module '@koa/router-13' {
  import Router from '@koa/router';
  export default Router;
}
declare module '@koa/router-14' {
  import Router from '@koa/router';
  export default Router;
}
declare module '@koa/router-15' {
  import Router from '@koa/router';
  export default Router;
}
