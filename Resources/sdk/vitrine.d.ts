// Type declarations for the JavaScript API Vitrine injects into every page at document
// start (vitrine.js, beside this file). Copy this file into a web project (or reference
// it with /// <reference path="vitrine.d.ts" />) to type-check calls to native code.

/**
 * A JSON value: what crosses the bridge in both directions, exactly — object members keep
 * their order at every depth, numbers are numbers, strings keep every character (NUL,
 * lone surrogates, astral characters).
 */
type VitrineJSON = null | boolean | number | string | VitrineJSON[] | { [key: string]: VitrineJSON };

/**
 * Bytes: a `Uint8Array`, an `ArrayBuffer` or any other view of one, sent as a whole
 * payload, reaches native code as bytes (`[UInt8]`, `JSONValue.bytes`), not as JSON. A
 * strategy answering with bytes resolves with a `Uint8Array`. Only a whole payload or
 * reply is bytes: inside an object a typed array is JSON-serialised as usual (an object
 * with a key per index), so send binary data on its own.
 */
type VitrineBytes = Uint8Array | ArrayBuffer | ArrayBufferView;

/** What a call can send. */
type VitrinePayload = VitrineJSON | VitrineBytes;

/** What a call can resolve with: JSON, or bytes as a `Uint8Array`. */
type VitrineResult = VitrineJSON | Uint8Array;

interface Vitrine {
  /**
   * Calls the native strategy `name` with `payload` (default `null`): JSON, or bytes.
   * Resolves with the strategy's result (JSON with its members in the strategy's order, or
   * a `Uint8Array`); rejects with an `Error` whose message is the strategy's error, or when
   * the payload is not JSON-serialisable (a `TypeError`), when no strategy has that name,
   * or when this page's origin may not call it.
   *
   * @example
   * const same = await vitrine.invoke('ping', {b: 1, a: [2, {z: 0, y: 1}]}); // keys in order
   * const bytes = await vitrine.invoke('ping', new Uint8Array([1, 2, 3]));   // a Uint8Array
   */
  invoke<Result extends VitrineResult = VitrineResult>(name: string, payload?: VitrinePayload): Promise<Result>;

  /** Listens to a native event; returns a function that removes the listener. */
  on<Payload extends VitrineJSON = VitrineJSON>(event: string, listener: (payload: Payload) => void): () => void;

  /** Removes a listener added with `on`. */
  off(event: string, listener: (payload: any) => void): void;

  /** The bridge protocol version. */
  readonly version: string;
}

interface VitrineMessageHandler {
  /** The WKWebView form: same as `vitrine.invoke(name, body)`. */
  postMessage<Result extends VitrineResult = VitrineResult>(body?: VitrinePayload): Promise<Result>;
}

/** Built-in strategies and their payloads. */
interface VitrineBuiltInStrategies {
  /** Answers with exactly the payload it received: the same JSON text, or the same bytes. */
  ping: { payload: VitrinePayload; result: VitrineResult };
  /** Who the desktop user is. */
  user: { payload: VitrineJSON; result: { name: string; login: string; locale: string } };
  /** Acts on the window. Resolves with `true`. */
  page: {
    payload: { action: "close" } | { action: "reload" } | { action: "setTitle"; title: string };
    result: true;
  };
}

declare global {
  interface Window {
    readonly vitrine: Vitrine;
    readonly webkit: { readonly messageHandlers: { readonly [name: string]: VitrineMessageHandler } };
  }
  const vitrine: Vitrine;
}

export {};
