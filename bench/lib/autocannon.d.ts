/** The part of autocannon's API the benches use (the package ships no types). */
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** `context` is the connection's, shared by its requests in turn (a request may pass a value to the next). */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    requests?: Request[];
  }
  interface Result {
    duration: number;
    errors: number;
    non2xx: number;
    requests: { total: number; average: number };
    latency: { p50: number; average: number; p99: number };
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
