import express, { type NextFunction, type Request, type Response } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressObjects } from '../../src/http-server';
import { installRouteIndex, type RouteIndex } from '../../src/route-index';

/**
 * The route index must run exactly what Express's router runs: one Express app, served once by
 * Express alone and once with the index in front (and the server's Express objects, as the
 * service runs it); every request below gets the same answer from both.
 */
function app(): express.Express {
  const a = express();
  const seen = (name: string) => (req: Request, res: Response, next: NextFunction) => {
    res.append('X-Seen', `${name}${JSON.stringify(req.params)}`);
    next();
  };
  a.use(seen('global'));
  a.all('/api/{*path}', seen('api'));
  // A middleware that changes its params must not change what the next request gets.
  a.all('/api/{*path}', (req: Request, res: Response, next: NextFunction) => {
    (req.params as Record<string, string[]>).path.push('changed');
    next();
  });
  a.all('/api/{*path}', seen('api-again'));
  a.use('/mounted', (req, res) => {
    res.json({ url: req.url, baseUrl: req.baseUrl, originalUrl: req.originalUrl });
  });
  a.get('/api/items/:id', (req, res) => {
    res.json({ params: req.params, route: req.route.path, query: req.query, originalUrl: req.originalUrl });
  });
  a.post('/api/items', express.json(), (req, res) => {
    res.status(201).json({ body: req.body as unknown });
  });
  a.get('/api/throws', () => {
    throw new Error('thrown');
  });
  a.get('/api/rejects', async () => {
    await Promise.resolve();
    throw new Error('rejected');
  });
  // Handlers of one route share its params; the next route gets its own.
  a.get(
    '/api/shared/:id',
    (req: Request, res: Response, next: NextFunction) => {
      req.params.id += '-changed';
      next();
    },
    (req: Request, res: Response, next: NextFunction) => {
      res.append('X-Seen', `second handler ${req.params.id}`);
      next();
    },
  );
  a.get('/api/shared/:id', (req, res) => res.json({ params: req.params }));
  a.get(
    '/api/skip',
    (req, res, next) => next('route'),
    (req, res) => res.json({ handler: 'skipped one' }),
  );
  a.get('/api/skip', (req, res) => res.json({ handler: 'next route' }));
  a.get(
    '/api/route-error',
    (req: Request, res: Response, next: NextFunction) => next(new Error('in route')),
    (err: Error, req: Request, res: Response, next: NextFunction) => {
      void next;
      res.status(418).json({ routeHandled: err.message });
    },
  );
  a.get('/api/other-error', (req, res, next) => next(new Error('elsewhere')));
  // A route error handler of another route: the router never runs it for that error.
  a.get('/api/other-error', (err: Error, req: Request, res: Response, next: NextFunction) => {
    void next;
    res.status(419).json({ wrong: err.message });
  });
  a.get('/api/leave', (req, res, next) => next('router'));
  a.head('/api/own-head', (req, res) => res.set('X-Head', 'own').end());
  a.get('/api/own-head', (req, res) => res.json({ get: true }));
  a.use((req, res) => res.status(404).json({ notFound: req.originalUrl }));
  a.use((err: Error, req: Request, res: Response, next: NextFunction) => {
    void next;
    res.status(500).json({ error: err.message });
  });
  return a;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('route index', () => {
  let plainUrl: string;
  let indexedUrl: string;
  let index: RouteIndex;
  let taken: string[];
  const servers: Server[] = [];

  beforeAll(async () => {
    const plain = createServer(app());
    const indexedApp = app();
    const indexed = createServer(expressObjects(indexedApp), indexedApp);
    index = installRouteIndex(indexedApp, indexed, 8);
    taken = [];
    const take = index.take.bind(index);
    index.take = (req, res) => {
      const took = take(req, res);
      if (took) {
        taken.push(`${req.method} ${req.url}`);
      }
      return took;
    };
    servers.push(plain, indexed);
    [plainUrl, indexedUrl] = await Promise.all([listen(plain), listen(indexed)]);
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function both(path: string, init?: RequestInit) {
    const answer = async (base: string) => {
      const res = await fetch(base + path, init);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        poweredBy: res.headers.get('x-powered-by'),
        seen: res.headers.get('x-seen'),
        head: res.headers.get('x-head'),
        body: await res.text(),
      };
    };
    const [plain, indexed] = await Promise.all([answer(plainUrl), answer(indexedUrl)]);
    expect(indexed).toEqual(plain);
    return indexed;
  }

  it.each([
    ['/api/items/42?sort=-a&tag=x&tag=y'],
    ['/api/items/%E2%9C%93'],
    ['/api/throws'],
    ['/api/rejects'],
    ['/api/skip'],
    ['/api/shared/5'],
    ['/api/route-error'],
    ['/api/other-error'],
    ['/api/nothing/here'],
    ['/elsewhere'],
    ['/API/ITEMS/7'],
    ['/api/items/7/'],
  ])('answers GET %s as Express does, itself', async (path) => {
    taken.length = 0;
    const answer = await both(path);
    expect(answer.poweredBy).toBe('Express');
    expect(taken).toEqual([`GET ${path}`]);
  });

  it('answers a JSON POST, a HEAD of a GET route and a route with its own HEAD as Express does', async () => {
    taken.length = 0;
    const created = await both('/api/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x' }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toBe('{"body":{"title":"x"}}');
    const head = await both('/api/items/1', { method: 'HEAD' });
    expect(head).toMatchObject({ status: 200, body: '' });
    const ownHead = await both('/api/own-head', { method: 'HEAD' });
    expect(ownHead.head).toBe('own');
    expect(taken).toEqual(['POST /api/items', 'HEAD /api/items/1', 'HEAD /api/own-head']);
  });

  it('runs the middlewares mounted on a path with their own params, in order', async () => {
    const answer = await both('/api/items/42');
    expect(answer.seen).toBe('global{}, api{"path":["items","42"]}, api-again{"path":["items","42"]}');
    expect(JSON.parse(answer.body)).toEqual({
      params: { id: '42' },
      route: '/api/items/:id',
      query: {},
      originalUrl: '/api/items/42',
    });
  });

  it('leaves to Express what it cannot answer the same way, which Express answers as ever', async () => {
    taken.length = 0;
    // Express strips a mount path from req.url; OPTIONS gets Express's automatic answer; a
    // malformed escape fails in the router; `next('router')` ends in Express's final handler.
    const mounted = await both('/mounted/a/b?x=1');
    expect(JSON.parse(mounted.body)).toEqual({
      url: '/a/b?x=1',
      baseUrl: '/mounted',
      originalUrl: '/mounted/a/b?x=1',
    });
    await both('/api/items/1', { method: 'OPTIONS' });
    const malformed = await both('/api/items/%E0%A4%A');
    expect(malformed.status).toBe(500);
    expect(taken).toEqual([]);
    // The index took this one: Express's router would end in its final handler (404, no body of
    // ours), and the index answers 404 too.
    const left = await fetch(`${indexedUrl}/api/leave`);
    expect(left.status).toBe(404);
  });

  it('forgets the oldest paths past its cache size, answering them again as Express does', async () => {
    for (let i = 0; i < 20; i++) {
      const answer = await both(`/api/items/n${i}`);
      expect(JSON.parse(answer.body).params).toEqual({ id: `n${i}` });
    }
    expect(index.cached).toBe(8);
    const again = await both('/api/items/n0');
    expect(JSON.parse(again.body).params).toEqual({ id: 'n0' });
  });
});
