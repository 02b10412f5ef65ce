// `express4` is the npm alias `npm:express@^4` used to test the adapter on Express 4 too; its API
// is the subset of Express 5's typings this suite uses.
declare module 'express4' {
  import express from 'express';
  export default express;
}
