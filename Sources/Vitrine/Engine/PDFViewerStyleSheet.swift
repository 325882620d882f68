/// CSS applied to WebKit's PDF viewer only (its frames' URLs match `urlPattern`).
public struct PDFViewerStyleSheet: Sendable, Equatable {
    public var css: String

    /// Where WebKitGTK serves PDF.js from: a user style sheet limited to it touches no page.
    public static let urlPattern = "webkit-pdfjs-viewer://*/*"

    public static let lockdown = PDFViewerStyleSheet(css: """
        #toolbarContainer, #sidebarContainer, #secondaryToolbar, #findbar, #editorModeButtons,
        .doorHanger, .doorHangerRight, dialog { display: none !important; }
        #viewerContainer { inset: 0 !important; }
        """)
}
