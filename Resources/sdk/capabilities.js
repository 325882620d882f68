// The capabilities' namespaces of `window.vitrine` (storage, clipboard, window, notification, dialog, shell, menu,
// print, app, shortcuts, tray, power, sidecars, update), typed by
// vitrine.d.ts beside it. Each call is one `vitrine.invoke` of the built-in strategy of the
// capability's name with `{action, …}` (a clipboard image: its bytes, the whole payload; the
// strategies' requests are Swift enums, DialogStrategy.Request & co.); native code refuses it unless the page's origin
// was granted the capability ([capabilities] in the configuration).
//
// Injected in the page's world before payload.js and vitrine.js, in the same script: it
// only leaves a function for vitrine.js, which calls it with its `invoke`, `on` and the
// payloads' codec, adds the namespaces to the frozen `window.vitrine` and deletes the
// function before any page script runs. Tests: Tests/sdk/capabilities.test.js.
(function () {
  'use strict';
  if (window.vitrine) return;

  // `bytes`: the payloads' base64 codec (payload.js), for the one binary field inside a JSON
  // body (a saved file's bytes). Bytes on their own go as the whole payload, which the
  // bridge carries on its bytes port (a clipboard image), and come back as a Uint8Array
  // (a PDF, a file read as bytes).
  function capabilities(invoke, on, bytes) {
    function call(capability, action, fields) {
      var body = { action: action };
      if (fields) Object.keys(fields).forEach(function (key) { if (fields[key] !== undefined) body[key] = fields[key]; });
      return invoke(capability, body);
    }
    function rejectType(message) { return Promise.reject(new TypeError(message)); }
    function isKey(key) { return typeof key === 'string'; }
    // An ArrayBuffer, or a view of bytes (Uint8Array, Uint8ClampedArray, Int8Array).
    function isBytes(value) {
      return value instanceof ArrayBuffer || (ArrayBuffer.isView(value) && value.BYTES_PER_ELEMENT === 1);
    }

    var storage = {
      get: function (key) { return isKey(key) ? call('storage', 'get', { key: key }) : rejectType('vitrine.storage: a key is a string'); },
      set: function (key, value) {
        if (!isKey(key)) return rejectType('vitrine.storage: a key is a string');
        return call('storage', 'set', { key: key, value: value === undefined ? null : value });
      },
      remove: function (key) { return isKey(key) ? call('storage', 'remove', { key: key }) : rejectType('vitrine.storage: a key is a string'); },
      keys: function () { return call('storage', 'keys'); },
      clear: function () { return call('storage', 'clear'); }
    };

    var clipboard = {
      readText: function () { return call('clipboard', 'readText'); },
      writeText: function (text) { return call('clipboard', 'writeText', { text: String(text) }); },
      writeImage: function (image) {
        if (!isBytes(image)) return rejectType('vitrine.clipboard.writeImage: the PNG image as a Uint8Array or ArrayBuffer');
        return invoke('clipboard', image);
      }
    };

    var windowSpace = {
      state: function () { return call('window', 'state'); },
      setTitle: function (title) { return call('window', 'setTitle', { title: String(title) }); },
      resize: function (width, height) { return call('window', 'resize', { width: width, height: height }); },
      minimize: function () { return call('window', 'minimize'); },
      maximize: function () { return call('window', 'maximize'); },
      unmaximize: function () { return call('window', 'unmaximize'); },
      fullscreen: function (on) { return call('window', 'fullscreen', { on: on !== false }); },
      keepAbove: function (on) { return call('window', 'keepAbove', { on: on !== false }); },
      close: function () { return call('window', 'close'); },
      beginMove: function () { return call('window', 'beginMove'); },
      open: function (url, options) {
        options = options || {};
        return call('window', 'open', { url: String(url), title: options.title, width: options.width, height: options.height });
      },
      // 'focus', 'blur', 'resize' ({width, height}) of this window; 'closed' ({id}) of another.
      on: function (event, listener) { return on('window:' + event, listener); }
    };

    var dialog = {
      // Paths ([] of one unless multiple), or null when cancelled.
      open: function (options) {
        options = options || {};
        return call('dialog', 'open', { title: options.title, directory: options.directory,
          multiple: options.multiple === true ? true : undefined, folder: options.folder === true ? true : undefined });
      },
      // The path chosen (written with options.text or options.bytes first), or null.
      save: function (options) {
        options = options || {};
        var fields = { title: options.title, directory: options.directory, name: options.name };
        if (options.bytes !== undefined) {
          if (!isBytes(options.bytes)) return rejectType('vitrine.dialog.save: bytes must be a Uint8Array or ArrayBuffer');
          fields.base64 = bytes.toBase64(options.bytes);
        } else if (options.text !== undefined) {
          fields.text = String(options.text);
        }
        return call('dialog', 'save', fields);
      },
      message: function (title, message) { return call('dialog', 'message', { title: String(title), message: String(message) }); },
      confirm: function (title, message) { return call('dialog', 'confirm', { title: String(title), message: String(message) }); },
      // A file chosen in an open dialog: its text, or its bytes.
      readText: function (path) { return call('dialog', 'read', { path: String(path), as: 'text' }); },
      readBytes: function (path) { return call('dialog', 'read', { path: String(path), as: 'bytes' }); }
    };

    var shell = {
      // A URL in the desktop's browser (or mail client…): http, https, mailto, tel.
      open: function (url) { return call('shell', 'open', { url: String(url) }); },
      // A file chosen in a dialog, in its default application.
      openFile: function (path) { return call('shell', 'openFile', { path: String(path) }); }
    };

    var notification = {
      show: function (options) {
        options = options || {};
        return call('notification', 'show', { title: options.title, body: options.body, id: options.id, actions: options.actions });
      },
      // 'clicked' ({id}): the user clicked one of this app's notifications.
      // 'action' ({id, action}): the user pressed a button of a notification this document showed.
      on: function (event, listener) { return on('notification:' + event, listener); }
    };

    // Items: {id, label, accelerator?, enabled?, checked?}, {label, items: [...]}, '-' (a separator).
    function menuItems(name, items) {
      return Array.isArray(items) ? null : rejectType('vitrine.menu.' + name + ': the items are an array');
    }
    var menu = {
      set: function (items) { return menuItems('set', items) || call('menu', 'set', { items: items }); },
      setContext: function (items) { return menuItems('setContext', items) || call('menu', 'setContext', { items: items }); },
      clear: function () { return call('menu', 'clear'); },
      // 'activated' ({id, menu: 'bar' | 'context', checked?}): the user chose an item of this page's menus.
      on: function (event, listener) { return on('menu:' + event, listener); }
    };

    // print(): GTK's print dialog for the page → whether the user printed.
    var print = function () { return call('print', 'dialog'); };
    // print.toPDF({pageSize, landscape, margins}): the page as PDF bytes, no dialog.
    print.toPDF = function (options) {
      options = options || {};
      return call('print', 'pdf', { pageSize: options.pageSize, landscape: options.landscape, margins: options.margins });
    };

    // Drag regions: a press (first button) on an element marked `data-vitrine-drag-region`
    // moves the window (`window` capability), unless it is on a control inside the region
    // or on an element marked `data-vitrine-no-drag`.
    document.addEventListener('mousedown', function (event) {
      var target = event.target;
      if (event.button !== 0 || !target || typeof target.closest !== 'function') return;
      if (!target.closest('[data-vitrine-drag-region]')) return;
      if (target.closest('[data-vitrine-no-drag], input, textarea, select, button, a[href], [contenteditable]')) return;
      event.preventDefault();
      call('window', 'beginMove').catch(function (error) { console.warn('vitrine: drag region: ' + error.message); });
    }, true);


    var app = {
      // Whether the app starts at login: writes or removes its XDG autostart entry; resolves with the state.
      setAutostart: function (on) {
        if (typeof on !== 'boolean') return rejectType('vitrine.app.setAutostart: true or false');
        return call('app', 'setAutostart', { on: on });
      },
      autostart: function () { return call('app', 'autostart'); },
      // 'deep-link' ({url, scheme, host?, path, query?}): the desktop opened one of the app's URL schemes.
      on: function (event, listener) { return on(event, listener); }
    };

    var shortcuts = {
      // Global keys ("Ctrl+Alt+K"), heard while another program has the keyboard; resolves with the keys as understood.
      register: function (accelerator, id) {
        if (typeof accelerator !== 'string' || typeof id !== 'string') return rejectType('vitrine.shortcuts.register: (accelerator, id), two strings');
        return call('shortcuts', 'register', { accelerator: accelerator, id: id });
      },
      unregister: function (id) {
        return typeof id === 'string' ? call('shortcuts', 'unregister', { id: id }) : rejectType('vitrine.shortcuts.unregister: an id is a string');
      },
      // 'shortcut' ({id, accelerator}): one of this window's shortcuts was pressed.
      on: function (event, listener) { return on(event, listener); }
    };

    var tray = {
      // The app's icon in the desktop's tray: {icon: 'icons/tray.png' (a PNG or SVG of the app's folder) or an
      // icon-theme name, tooltip?, items?: menu items as vitrine.menu's}. It lasts while this document is shown.
      set: function (options) {
        if (!options || typeof options.icon !== 'string') return rejectType('vitrine.tray.set: {icon, tooltip?, items?}, icon a string');
        if (options.items !== undefined && !Array.isArray(options.items)) return rejectType('vitrine.tray.set: the items are an array');
        return call('tray', 'set', { icon: options.icon, tooltip: options.tooltip, items: options.items });
      },
      clear: function () { return call('tray', 'clear'); },
      // 'activated' ({id, checked?}): the user chose an item of the tray's menu (a check item flipped: its new state); 'click' ({}): the user clicked the icon.
      on: function (event, listener) { return on('tray:' + event, listener); }
    };

    var power = {
      // Keeps the screen from blanking (a video, a presentation) while this document is shown; resolves true.
      keepAwake: function (reason) {
        if (reason !== undefined && typeof reason !== 'string') return rejectType('vitrine.power.keepAwake: a reason is a string');
        return call('power', 'keepAwake', { reason: reason });
      },
      // Lets the screen blank again; resolves with whether this document kept it awake.
      allowSleep: function () { return call('power', 'allowSleep'); }
    };

    var sidecars = {
      // The app's sidecar `name` ([[sidecars]]): resolves {port, state}; an unknown name is refused.
      get: function (name) {
        if (typeof name !== 'string') return rejectType('vitrine.sidecars.get: a name is a string');
        return call('sidecars', 'get', { name: name });
      },
      // 'ready' ({name, port}) and 'exited' ({name, state, code?, signal?}).
      on: function (event, listener) { return on('sidecars:' + event, listener); }
    };

    var update = {
      // The feed's newer signed version, {version, notes}, or null when the app is up to date; rejects with why a feed was refused.
      check: function () { return call('update', 'check'); },
      // Downloads, verifies and installs the newer version; resolves true, or rejects with the reason (nothing replaced).
      install: function () { return call('update', 'install'); },
      // 'available' ({version, notes}): the periodic check found a newer version; 'progress' ({received, total}): install's download;
      // 'rolled-back' ({reason}): a tarball update's new version did not load its page, and this one came back.
      on: function (event, listener) { return on('update:' + event, listener); }
    };

    return { storage: storage, clipboard: clipboard, window: windowSpace, notification: notification, dialog: dialog, shell: shell,
      menu: menu, print: print, app: app, shortcuts: shortcuts, tray: tray, power: power, sidecars: sidecars, update: update };
  }

  Object.defineProperty(window, 'vitrineCapabilities', { value: capabilities, configurable: true });
})();
