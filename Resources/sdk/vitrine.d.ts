// Type declarations for the JavaScript API Vitrine injects into every page at document
// start (vitrine.js, beside this file). Copy this file into a web project (or reference
// it with /// <reference path="vitrine.d.ts" />) to type-check calls to native code.

/** A JSON value: what crosses the bridge in both directions. */
type VitrineJSON = null | boolean | number | string | VitrineJSON[] | { [key: string]: VitrineJSON };

interface Vitrine {
  /**
   * Calls the native strategy `name` with `payload` (default `null`).
   * Resolves with the strategy's JSON result; rejects with an `Error` whose message is the
   * strategy's error, or when the payload is not JSON-serialisable (a `TypeError`), when no
   * strategy has that name, or when this page's origin may not call it.
   */
  invoke<Result extends VitrineJSON = VitrineJSON>(name: string, payload?: VitrineJSON): Promise<Result>;

  /** Listens to a native event; returns a function that removes the listener. */
  on<Payload extends VitrineJSON = VitrineJSON>(event: string, listener: (payload: Payload) => void): () => void;

  /** Removes a listener added with `on`. */
  off(event: string, listener: (payload: any) => void): void;

  /** The bridge protocol version. */
  readonly version: string;
}

interface VitrineMessageHandler {
  /** The WKWebView form: same as `vitrine.invoke(name, body)`. */
  postMessage<Result extends VitrineJSON = VitrineJSON>(body?: VitrineJSON): Promise<Result>;
}

/** Built-in strategies and their payloads. */
interface VitrineBuiltInStrategies {
  /** Answers with exactly the payload it received. */
  ping: { payload: VitrineJSON; result: VitrineJSON };
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
