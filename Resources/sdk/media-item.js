// A playlist's media item, page side (Sources/VitrineGTK/Signage/MediaItemPlayer.swift).
// Injected at document end into the top frame only, in Vitrine's isolated script world:
// page scripts can neither post as it nor call its replay function.
//
// It acts only in WebKit's media document (a video or audio file loaded as the page,
// `document.contentType` video/… or audio/…): the file fills the window on black, without
// controls, and its end is reported on `vitrine-media` ("ended"). Native code decides what
// the end means (the next item, or play again through `vitrineMediaReplay()`). An HTML page,
// even one with a <video>, reports nothing: only a media item's own file ends its turn.
(function () {
  'use strict';
  var HANDLER = VITRINE_PROTOCOL.mediaHandler;
  var REPLAY = VITRINE_PROTOCOL.mediaReplayFunction;

  function isMediaDocument(doc) {
    var type = String(doc.contentType || '');
    return type.indexOf('video/') === 0 || type.indexOf('audio/') === 0;
  }

  function mediaElement(doc) {
    return doc.querySelector('video, audio');
  }

  function report(text) {
    var handlers = window.webkit && window.webkit.messageHandlers;
    if (handlers && handlers[HANDLER]) handlers[HANDLER].postMessage(text);
  }

  function fill(doc, media) {
    media.controls = false;
    media.removeAttribute('controls');
    if (doc.body) {
      doc.body.style.margin = '0';
      doc.body.style.background = 'black';
      doc.body.style.overflow = 'hidden';
    }
    if (media.tagName && String(media.tagName).toLowerCase() === 'video') {
      media.style.position = 'fixed';
      media.style.top = '0';
      media.style.left = '0';
      media.style.width = '100vw';
      media.style.height = '100vh';
      media.style.maxWidth = 'none';
      media.style.maxHeight = 'none';
      media.style.objectFit = 'contain';
      media.style.background = 'black';
    }
  }

  function install(doc) {
    if (!isMediaDocument(doc)) return;
    var media = mediaElement(doc);
    if (!media) return;
    fill(doc, media);
    media.addEventListener('ended', function () { report('ended'); });
    window[REPLAY] = function () {
      media.currentTime = 0;
      var playing = media.play();
      if (playing && playing.catch) playing.catch(function () {});
    };
  }

  install(document);
})();
