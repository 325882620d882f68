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
  invoke<Name extends keyof VitrineStrategies>(
    name: Name, ...payload: VitrinePayloadArgument<VitrineStrategies[Name]["payload"]>
  ): Promise<VitrineStrategies[Name]["result"]>;
  /**
   * A strategy these types do not know (no entry in `VitrineStrategies`): any payload, and
   * the result type you name. A known name never lands here: its payload is checked.
   */
  invoke<Result extends VitrineResult = VitrineResult, Name extends string = string>(
    name: Name extends keyof VitrineStrategies ? never : Name, payload?: VitrinePayload
  ): Promise<Result>;

  /**
   * Capability `drop`: files dragged from the desktop onto the window (local regular files,
   * never through a symbolic link), each readable with `vitrine.dialog.readText`/`readBytes`.
   */
  on(event: "files:dropped", listener: (payload: { files: { path: string; size: number }[] }) => void): () => void;
  /** Listens to a native event; returns a function that removes the listener. */
  on<Payload extends VitrineJSON = VitrineJSON>(event: string, listener: (payload: Payload) => void): () => void;

  /** Removes a listener added with `on`. */
  off(event: string, listener: (payload: any) => void): void;

  /** The bridge protocol version. */
  readonly version: string;

  /**
   * Capability `storage`: the app's persistent key–value store, kept across restarts in
   * `$XDG_DATA_HOME/vitrine/<app-id>/storage.json`. A value's JSON is at most 1 MiB, a key
   * at most 1024 bytes, the whole store at most 10 MiB; a write over a limit rejects.
   */
  readonly storage: VitrineStorage;

  /** Capability `clipboard`: the desktop's clipboard. */
  readonly clipboard: VitrineClipboard;

  /** Capability `window`: this window, and more windows of the app. */
  readonly window: VitrineWindow;

  /** Capability `notification`: desktop notifications (GNotification). */
  readonly notification: VitrineNotification;

  /** Capability `dialog`: the desktop's file dialogs, messages and questions. */
  readonly dialog: VitrineDialog;

  /** Capability `shell`: the desktop's applications. */
  readonly shell: VitrineShell;

  /** Capability `menu`: the window's menu bar and the page's context menu (never in a kiosk). */
  readonly menu: VitrineMenu;

  /** Capability `print`: the page printed through GTK's dialog, or as PDF bytes. */
  readonly print: VitrinePrint;

  /** Capability `app`: the app's place on the desktop (autostart, deep links). Refused in kiosks. */
  readonly app: VitrineApp;

  /** Capability `shortcuts`: global shortcuts, heard while another program has the keyboard. Refused in kiosks. */
  readonly shortcuts: VitrineShortcuts;

  /** Capability `tray`: the app's icon in the desktop's tray (a StatusNotifierItem), with a menu. Refused in kiosks. */
  readonly tray: VitrineTray;

  /** Capability `power`: the screen kept awake while a video plays or a presentation shows. */
  readonly power: VitrinePower;

  /** Capability `sidecars`: the app's backend processes (`[[sidecars]]`): their loopback ports and states. */
  readonly sidecars: VitrineSidecars;

  /** Capability `update`: the app's signed updates (`[update]` in its configuration). */
  readonly update: VitrineUpdate;
}

interface VitrinePrint {
  /** Shows GTK's print dialog for this page; resolves `true` when the user printed, `false` when cancelled. Refused in a kiosk. */
  (): Promise<boolean>;
  /**
   * This page as PDF bytes, without a dialog. `pageSize`: `"a3"`, `"a4"`, `"a5"`, `"a6"`,
   * `"letter"`, `"legal"` or `"WIDTHxHEIGHTmm"`; `margins`: millimetres on every side, 0–100.
   */
  toPDF(options?: { pageSize?: string; landscape?: boolean; margins?: number }): Promise<Uint8Array>;
}

/**
 * A menu entry: a command (its `id` reaches `vitrine.menu.on("activated")`), a submenu, or
 * a separator (`"-"`). Ids are 1–64 of `A-Z a-z 0-9 - _ . :`, unique in the menu; labels
 * 1–100 characters; submenus nest 4 deep; 200 entries in all. `accelerator` is a key
 * combination such as `"Ctrl+Shift+K"`, `"Alt+F4"` or `"F5"` (menu bar only).
 */
type VitrineMenuItem =
  | { id: string; label: string; accelerator?: string; enabled?: boolean; checked?: boolean }
  | { label: string; items: VitrineMenuItem[] }
  | "-"
  | { type: "separator" };

interface VitrineMenu {
  /** Shows `items` (top-level entries are usually submenus: File, Edit…) as the window's menu bar, while this document is shown. */
  set(items: VitrineMenuItem[]): Promise<true>;
  /** Shows `items` in place of WebKit's context menu (right click) on this page, while this document is shown. */
  setContext(items: VitrineMenuItem[]): Promise<true>;
  /** Removes this document's menu bar and context menu. */
  clear(): Promise<true>;
  /** The user chose a command of this document's menus; `checked` is a check item's new state. */
  on(event: "activated", listener: (payload: { id: string; menu: "bar" | "context"; checked?: boolean }) => void): () => void;
}

interface VitrineShortcuts {
  /**
   * Grabs `accelerator` ("Ctrl+Alt+K": Ctrl, Alt or Super, optionally Shift, then a letter,
   * digit, F1–F24 or a named key) for this window under `id`; resolves with the keys as
   * understood ("Ctrl+Alt+K"). X11 only: rejects under Wayland, for keys another program
   * holds, and past 16 shortcuts. Registering `id` again moves it to the new keys. The
   * window's shortcuts go when its page does.
   */
  register(accelerator: string, id: string): Promise<string>;
  /** Lets `id` go; resolves with whether it was registered. */
  unregister(id: string): Promise<boolean>;
  /** One of this window's shortcuts was pressed. */
  on(event: "shortcut", listener: (payload: { id: string; accelerator: string }) => void): () => void;
}

interface VitrineTray {
  /**
   * Shows the app's tray icon, or replaces it, while this document is shown (the next page
   * starts without). `icon`: a PNG or SVG file of the app's folder by its relative path
   * (`"icons/tray.png"`: no `..`, no absolute path, no symlink out of the folder, 1 MiB at
   * most), or an icon-theme name (`"mail-unread"`). `tooltip`: at most 200 characters.
   * `items`: a menu as `vitrine.menu.set` takes it (accelerators are not shown). Only the
   * window's top document may set it.
   */
  set(tray: { icon: string; tooltip?: string; items?: VitrineMenuItem[] }): Promise<true>;
  /** Removes the icon this document set. */
  clear(): Promise<true>;
  /** The user chose a command of the tray's menu; a check item flipped, and `checked` is its new state. */
  on(event: "activated", listener: (payload: { id: string; checked?: boolean }) => void): () => void;
  /** The user clicked the icon (it also brings back a window `[window] close-to-tray` hid). */
  on(event: "click", listener: (payload: {}) => void): () => void;
}

interface VitrinePower {
  /**
   * Keeps the screen from blanking while this document is shown: the desktop's idle
   * inhibitor (org.freedesktop.ScreenSaver), saying `reason` (1–100 characters; by default
   * "A page keeps the screen on"). Resolves `true`; rejects where the desktop has no screen
   * saver service. Only the window's top document may ask; its hold ends when it calls
   * `allowSleep`, when another page commits in its view, and with the window.
   */
  keepAwake(reason?: string): Promise<true>;
  /** Lets the screen blank again; resolves with whether this document kept it awake (a kiosk's `inhibit-screen-blanking` stays). */
  allowSleep(): Promise<boolean>;
}

/** A sidecar's state: starting, ready (its readiness check passed), restarting, exited, failed or stopped (with the app). */
type VitrineSidecarState = "starting" | "ready" | "restarting" | "exited" | "failed" | "stopped";

interface VitrineSidecars {
  /**
   * The app's sidecar `name`: the port on 127.0.0.1 Vitrine chose for it (its
   * `$VITRINE_SIDECAR_PORT`) and its state. Rejects a name the app does not declare.
   */
  get(name: string): Promise<{ port: number; state: VitrineSidecarState }>;
  /** A sidecar became ready: its port now answers. */
  on(event: "ready", listener: (payload: { name: string; port: number }) => void): () => void;
  /** A sidecar ended: `code` (its exit status) or `signal`; `state` says whether it restarts. */
  on(event: "exited", listener: (payload: { name: string; state: VitrineSidecarState; code?: number; signal?: number }) => void): () => void;
}

/** A newer signed version of the app: the manifest's version and release notes. */
interface VitrineUpdateOffer {
  version: string;
  notes: string;
}

interface VitrineUpdate {
  /**
   * Downloads `[update] feed` and verifies it: signed with `[update] public-key`, this app's,
   * on its channel. Resolves the version when it is strictly newer than the running one,
   * `null` when the app is up to date; rejects with the reason a feed is refused
   * (`update: bad-signature: …`, `wrong-key`, `other-app`, `insecure-url`…).
   */
  check(): Promise<VitrineUpdateOffer | null>;
  /**
   * Downloads the newer version's file (never past the manifest's size) and checks its
   * SHA-256. A `.deb` or `.rpm` goes to the system's installer (`[update] install-command`):
   * resolves `true` once installed. A relocatable tarball is unpacked beside the running
   * version and started; this version exits once the new one loaded its page, or comes back
   * (`update: rolled-back: …`, and the `rolled-back` event). Rejects with the reason
   * (`update: oversize: …`, `interrupted`, `hash-mismatch`, `not-newer`…), the running
   * version untouched.
   */
  install(): Promise<true>;
  /** The periodic check (`[update] check-every`) found a newer version. */
  on(event: "available", listener: (payload: VitrineUpdateOffer) => void): () => void;
  /** Bytes of install's download so far, of `total` (the manifest's size). */
  on(event: "progress", listener: (payload: { received: number; total: number }) => void): () => void;
  /** A tarball update's new version exited or did not load its page in time: this version came back, and `reason` says why. */
  on(event: "rolled-back", listener: (payload: { reason: string }) => void): () => void;
}

/** A URL of one of the app's `[app] url-schemes` that the desktop opened (`xdg-open myapp://open?id=3`). */
interface VitrineDeepLink {
  url: string;
  scheme: string;
  host?: string;
  path: string;
  query?: string;
}

interface VitrineApp {
  /**
   * Starts the app at login (`true`: writes `$XDG_CONFIG_HOME/autostart/<app-id>.desktop`) or
   * stops (`false`: removes it). Resolves with whether it is on.
   */
  setAutostart(on: boolean): Promise<boolean>;
  /** Whether the app's autostart entry is there. */
  autostart(): Promise<boolean>;
  /**
   * The desktop opened one of the app's URL schemes: at start (told once the page has
   * loaded) or while it runs. Pages of origins granted `app` only.
   */
  on(event: "deep-link", listener: (payload: VitrineDeepLink) => void): () => void;
}

interface VitrineShell {
  /** Opens `url` in the desktop's browser or mail client: http, https, mailto and tel only. */
  open(url: string): Promise<true>;
  /** Opens a file the user chose in a `dialog` (open or save) in its default application. */
  openFile(path: string): Promise<true>;
}

interface VitrineDialog {
  /**
   * Asks for a file (or several with `multiple`, or a folder with `folder`) through
   * GtkFileChooserNative (the desktop portal where there is one). Resolves with the paths,
   * or `null` when cancelled. Files chosen here can be read with `readText`/`readBytes`.
   */
  open(options?: { title?: string; directory?: string; multiple?: boolean; folder?: boolean }): Promise<string[] | null>;
  /** Asks where to save; writes `text` or `bytes` there when given. Resolves with the path, or `null`. */
  save(options?: { title?: string; directory?: string; name?: string; text?: string; bytes?: Uint8Array | ArrayBuffer }): Promise<string | null>;
  /** Tells the user something; resolves when they close it. */
  message(title: string, message: string): Promise<true>;
  /** Asks a yes/no question; resolves with the answer (`false` when dismissed). */
  confirm(title: string, message: string): Promise<boolean>;
  /** The text (UTF-8) of a file chosen in `open`, 16 MiB at most. */
  readText(path: string): Promise<string>;
  /** The bytes of a file chosen in `open`, 16 MiB at most. */
  readBytes(path: string): Promise<Uint8Array>;
}

interface VitrineNotification {
  /**
   * Shows a desktop notification; resolves with its id (`options.id`, or one made). A newer
   * one with the same id replaces it. Rejects when the program has no session bus (it then
   * runs without remote control).
   */
  show(options: { title: string; body?: string; id?: string }): Promise<{ id: string }>;
  /** The user clicked a notification of this app: its window was brought forward. */
  on(event: "clicked", listener: (payload: { id: string }) => void): () => void;
}

/**
 * Every capability's call rejects with `capability "NAME" is not granted to ORIGIN — add it
 * to [capabilities] in the config` unless the calling frame's origin was granted it.
 */
interface VitrineStorage {
  /** The value stored under `key`, or `null`. */
  get<Value extends VitrineJSON = VitrineJSON>(key: string): Promise<Value | null>;
  /** Stores `value` under `key` (written to disk before the promise resolves). */
  set(key: string, value: VitrineJSON): Promise<true>;
  remove(key: string): Promise<true>;
  /** The keys, sorted. */
  keys(): Promise<string[]>;
  clear(): Promise<true>;
}

interface VitrineClipboard {
  /** The clipboard's text, or `null` when it holds none. */
  readText(): Promise<string | null>;
  writeText(text: string): Promise<true>;
  /** Puts a PNG image on the clipboard; rejects if the bytes are not a PNG image (32 MiB at most). */
  writeImage(png: Uint8Array | ArrayBuffer): Promise<true>;
}

/** A window as `vitrine.window.state()` describes it. */
interface VitrineWindowState {
  /** The window's id among the app's windows (the first is 1). */
  id: number;
  title: string;
  width: number;
  height: number;
  maximized: boolean;
  fullscreen: boolean;
  focused: boolean;
}

interface VitrineWindow {
  state(): Promise<VitrineWindowState>;
  setTitle(title: string): Promise<true>;
  /** Whole pixels, 1 to 32767. */
  resize(width: number, height: number): Promise<true>;
  minimize(): Promise<true>;
  maximize(): Promise<true>;
  unmaximize(): Promise<true>;
  fullscreen(on?: boolean): Promise<true>;
  keepAbove(on?: boolean): Promise<true>;
  /** Closes this window (after answering); closing the app's last window ends it. */
  close(): Promise<true>;
  /**
   * Moves the window with the pointer while its first button is held (what a press on a
   * `data-vitrine-drag-region` element does); rejects when the button is up, and in a kiosk.
   */
  beginMove(): Promise<true>;
  /**
   * Opens another window of the app on `url` (relative to this page; one of the app's own
   * origins), with the same navigation chain, strategies and origin rules. Resolves with its id.
   */
  open(url: string, options?: { title?: string; width?: number; height?: number }): Promise<{ id: number }>;
  /** This window gained or lost the focus, or changed size. */
  on(event: "focus" | "blur", listener: (payload: null) => void): () => void;
  on(event: "resize", listener: (payload: { width: number; height: number }) => void): () => void;
  /** Another window of the app closed. */
  on(event: "closed", listener: (payload: { id: number }) => void): () => void;
}

interface VitrineMessageHandler {
  /** The WKWebView form: same as `vitrine.invoke(name, body)`. */
  postMessage<Result extends VitrineResult = VitrineResult>(body?: VitrinePayload): Promise<Result>;
}

/** The payload argument of `invoke`: optional when the strategy accepts `null`. */
type VitrinePayloadArgument<Payload> = null extends Payload ? [payload?: Payload] : [payload: Payload];

declare global {
  /**
   * The strategies `vitrine.invoke` knows, by name: payload and result. The built-in ones
   * are here; an app declares its own in this same global interface (a typed strategy's
   * `Request` and `Response`), and `invoke` checks every call to them:
   *
   * @example
   * declare global {
   *   interface VitrineStrategies {
   *     "cart.add": { payload: { sku: number; quantity: number }; result: { total: number } };
   *   }
   * }
   */
  interface VitrineStrategies {
    /** Answers with exactly the payload it received: the same JSON text, or the same bytes. */
    ping: { payload: VitrinePayload; result: VitrineResult };
    /** Who the desktop user is. */
    user: { payload: VitrineJSON; result: { name: string; login: string; locale: string } };
    // The built-in typed strategies: `page`, and the capabilities as `vitrine.storage` & co.
    // send them (prefer those), refused unless `[capabilities]` grants them to the calling
    // frame's origin; `page-error` is what the SDK sends of the app's uncaught errors. A
    // payload of another shape is refused naming the field at fault.
    // vitrine-types: from here to its end mark, written from the Swift sources (make sdk-types).
    /** `AppStrategy` in Sources/Vitrine/Capabilities/AppStrategy.swift. */
    "app": { payload: { action: "setAutostart"; on: boolean } | { action: "autostart" }; result: boolean };
    /** `ClipboardStrategy` in Sources/Vitrine/Capabilities/ClipboardStrategy.swift. */
    "clipboard": { payload: VitrineBytes | { action: "readText" } | { action: "writeText"; text: string }; result: VitrineJSON };
    /** `DialogStrategy` in Sources/Vitrine/Capabilities/DialogStrategy.swift. */
    "dialog": { payload: { action: "open"; title?: string | null; directory?: string | null; multiple?: boolean | null; folder?: boolean | null } | { action: "save"; title?: string | null; directory?: string | null; name?: string | null; text?: string | null; base64?: string | null } | { action: "message"; title: string; message: string } | { action: "confirm"; title: string; message: string } | { action: "read"; path: string; as?: "text" | "bytes" | "base64" | null }; result: VitrineJSON };
    /** `MenuStrategy` in Sources/Vitrine/Capabilities/MenuStrategy.swift. */
    "menu": { payload: { action: "set"; items: VitrineJSON[] } | { action: "setContext"; items: VitrineJSON[] } | { action: "clear" }; result: boolean };
    /** `NotificationStrategy` in Sources/Vitrine/Capabilities/NotificationStrategy.swift. */
    "notification": { payload: { action: "show"; title: string; body?: string | null; id?: string | null; actions?: { id: string; label: string }[] | null }; result: { id: string } };
    /** `PageStrategy` in Sources/Vitrine/Bridge/PageStrategy.swift. */
    "page": { payload: { action: "close" } | { action: "reload" } | { action: "setTitle"; title: string }; result: boolean };
    /** `PageErrorStrategy` in Sources/Vitrine/Reports/PageErrorStrategy.swift. */
    "page-error": { payload: { kind: "error" | "unhandledrejection"; message: string; source: string; line: number; column: number; stack?: string | null }; result: boolean };
    /** `PowerStrategy` in Sources/Vitrine/Capabilities/PowerStrategy.swift. */
    "power": { payload: { action: "keepAwake"; reason?: string | null } | { action: "allowSleep" }; result: boolean };
    /** `PrintStrategy` in Sources/Vitrine/Capabilities/PrintStrategy.swift. */
    "print": { payload: { action: "dialog" } | { action: "pdf"; pageSize?: string | null; landscape?: boolean | null; margins?: number | null }; result: VitrineJSON };
    /** `ShellStrategy` in Sources/Vitrine/Capabilities/ShellStrategy.swift. */
    "shell": { payload: { action: "open"; url: string } | { action: "openFile"; path: string }; result: boolean };
    /** `ShortcutsStrategy` in Sources/Vitrine/Capabilities/ShortcutsStrategy.swift. */
    "shortcuts": { payload: { action: "register"; accelerator: string; id: string } | { action: "unregister"; id: string }; result: VitrineJSON };
    /** `SidecarsStrategy` in Sources/Vitrine/Capabilities/SidecarsStrategy.swift. */
    "sidecars": { payload: { action: "get"; name: string }; result: { port: number; state: VitrineJSON } };
    /** `StorageStrategy` in Sources/Vitrine/Capabilities/StorageStrategy.swift. */
    "storage": { payload: { action: "get"; key: string } | { action: "set"; key: string; value: VitrineJSON } | { action: "remove"; key: string } | { action: "keys" } | { action: "clear" }; result: VitrineJSON };
    /** `TrayStrategy` in Sources/Vitrine/Capabilities/TrayStrategy.swift. */
    "tray": { payload: { action: "set"; icon: string; tooltip?: string | null; items?: VitrineJSON[] | null } | { action: "clear" }; result: boolean };
    /** `UpdateStrategy` in Sources/Vitrine/Capabilities/UpdateStrategy.swift. */
    "update": { payload: { action: "check" } | { action: "install" }; result: VitrineJSON };
    /** `WindowStrategy` in Sources/Vitrine/Capabilities/WindowStrategy.swift. */
    "window": { payload: { action: "state" } | { action: "setTitle"; title: string } | { action: "resize"; width: number; height: number } | { action: "minimize" } | { action: "maximize" } | { action: "unmaximize" } | { action: "fullscreen"; on?: boolean | null } | { action: "keepAbove"; on?: boolean | null } | { action: "close" } | { action: "beginMove" } | { action: "open"; url: string; title?: string | null; width?: number | null; height?: number | null }; result: VitrineJSON };
    // vitrine-types: end.
  }

  interface Window {
    readonly vitrine: Vitrine;
    readonly webkit: { readonly messageHandlers: { readonly [name: string]: VitrineMessageHandler } };
  }
  const vitrine: Vitrine;
}

export {};
