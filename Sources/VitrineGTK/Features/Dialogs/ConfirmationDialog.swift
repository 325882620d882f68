import CWebKitGTK
import Vitrine

/// A modal yes/no question over the container's window, and its one answer.
///
/// Owns the dialog and its `response` connection. The question is answered exactly once:
/// by the user (`response`), or `false` when the dialog goes unanswered (the container
/// closed): going, it destroys the dialog, so none outlives its window.
@MainActor
final class ConfirmationDialog {
    private let dialog: UnsafeMutablePointer<GtkWidget>
    private let signals: SignalConnections
    /// The one answer (`AnswerOnce`): it destroys the dialog; dropped unanswered, false.
    private let answer: AnswerOnce<Bool>
    /// Until answered: the dialog is destroyed with the answer.
    var isOpen: Bool { !answer.isAnswered }

    /// `acknowledgeOnly`: a message with one OK button (answering true), not a question.
    init(parent: UnsafeMutablePointer<GtkWindow>, title: String, message: String, acknowledgeOnly: Bool = false) {
        let dialog = gtk_dialog_new()!
        let signals = SignalConnections()
        self.dialog = dialog
        self.signals = signals
        answer = AnswerOnce(unanswered: false) { _ in
            signals.disconnectAll()
            gtk_widget_destroy(dialog)
        }
        let window: UnsafeMutablePointer<GtkWindow> = cast(dialog)
        gtk_window_set_title(window, title)
        gtk_window_set_transient_for(window, parent)
        gtk_window_set_modal(window, 1)
        let text = gtk_label_new(message)!
        gtk_label_set_line_wrap(NativeRoutePage.label(text), 1)
        gtk_widget_set_margin_start(text, 16)
        gtk_widget_set_margin_end(text, 16)
        let content = gtk_dialog_get_content_area(dialogPointer)!
        gtk_box_pack_start(UnsafeMutableRawPointer(content).assumingMemoryBound(to: GtkBox.self), text, 1, 1, 8)
        if acknowledgeOnly {
            gtk_dialog_add_button(dialogPointer, "OK", GTK_RESPONSE_ACCEPT.rawValue)
        } else {
            gtk_dialog_add_button(dialogPointer, "Cancel", GTK_RESPONSE_CANCEL.rawValue)
            gtk_dialog_add_button(dialogPointer, "Confirm", GTK_RESPONSE_ACCEPT.rawValue)
        }
        signals.connect(gptr(dialog), "response", context: SignalContext(owner: self), handler: gCallback(onDialogResponse))
    }

    private var dialogPointer: UnsafeMutablePointer<GtkDialog> { cast(dialog) }

    /// Shows the dialog and waits for the answer.
    func ask() async -> Bool {
        gtk_widget_show_all(dialog)
        return await answer.value
    }

    /// Answers as a user would (tests and remote control).
    func respond(accept: Bool) {
        gtk_dialog_response(dialogPointer, accept ? GTK_RESPONSE_ACCEPT.rawValue : GTK_RESPONSE_CANCEL.rawValue)
    }

    /// Closes the dialog unanswered: the question answers false. (The container calls it
    /// when it closes: while `ask` waits, the dialog is kept alive by that call.)
    func dismiss() {
        close(answering: false)
    }

    /// Settles the question once and closes the dialog.
    fileprivate func responded(_ response: gint) {
        close(answering: response == GTK_RESPONSE_ACCEPT.rawValue)
    }

    private func close(answering accepted: Bool) {
        answer.answer(accepted)
    }
}

/// `response` on a dialog: `void (*)(GtkDialog*, gint, gpointer)`.
private let onDialogResponse: @convention(c) (OpaquePointer?, gint, gpointer?) -> Void = { _, response, data in
    onMainLoop((response, data)) { response, data in
        SignalContext.owner(data, as: ConfirmationDialog.self)?.responded(response)
    }
}
