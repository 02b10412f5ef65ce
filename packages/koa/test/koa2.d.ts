// `koa2` is the npm alias `npm:koa@^2` used to test the middleware on Koa 2 too; @types/koa describes it.
declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}
