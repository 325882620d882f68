/// The parts of `vitrine(1)` that are prose, not declarations: written here, in roff, and
/// put around the generated synopsis, options and commands by `VitrineManual`.
enum ManualProse {
    static let name = #"""
        vitrine \- desktop web container: a GTK window hosting a WebKitGTK view
        """#

    static let description = #"""
        .B vitrine
        opens a web page or a local web app in a window of its own: one GTK 3 window around a
        WebKitGTK view, with no browser interface.
        Every navigation the page starts goes through an ordered chain of handlers, each of which
        allows it, cancels it, or hands it on to the next; messages that the page posts to
        .B \%window.webkit.messageHandlers
        are answered by native strategies chosen by the message's name.
        Which handlers and strategies are in use, and how the window looks, is set by a
        .IR preset ,
        refined by the options below.
        .PP
        With no
        .IR URL ,
        no
        .B \-\-config
        and no
        .BR \-\-app\-dir ,
        .B vitrine
        opens the bundled demo app, served from
        .I /usr/share/vitrine/demo
        under the
        .B app://demo/
        scheme.
        .PP
        .B open
        is the default command and may be left out.
        .B check\-config
        checks a configuration file without opening a window.
        """#

    static let presets = #"""
        .TP
        .B default
        An open container: every navigation loads.
        .TP
        .B product\-page
        .B default
        with zoom disabled and the window title following the page.
        .TP
        .B payment
        Payment pages are verified natively first, then deep links are handled, then everything
        else loads.
        .TP
        .B app
        The bundled demo hybrid app, with every built-in handler and strategy in use.
        .TP
        .B kiosk
        An unattended, fullscreen kiosk: locked down, only the start page's origin (and the
        allowed origins) load, and it recovers by itself.
        """#

    static let exitStatus = #"""
        .TP
        .B 0
        The window was closed, or the first load finished with
        .BR \-\-exit\-after\-load .
        .TP
        .B 1
        The first load failed, the screenshot could not be written, or there is no display.
        .TP
        .B 2
        The first load did not finish within
        .BR \-\-load\-timeout .
        .TP
        .B 64
        The command line was invalid (an unknown preset, a bad
        .IR URL ,
        a non-positive size).
        .PP
        .B check\-config
        exits 0 when the file is valid and 1 when it is not.
        """#

    static let environment = #"""
        .TP
        .B VITRINE_RESOURCES
        A folder to use instead of the installed resources (the demo app, error pages, the
        JavaScript SDK and sample configurations).
        Without it,
        .B vitrine
        uses
        .I share/vitrine
        next to the
        .I bin
        folder it was started from (so
        .I /usr/bin/vitrine
        uses
        .IR /usr/share/vitrine ),
        and failing that the source tree it was built from.
        .TP
        .BR DISPLAY ", " WAYLAND_DISPLAY
        The display to open the window on.
        With neither set,
        .B vitrine
        exits with an error; use
        .BR xvfb\-run (1)
        to run it without a screen.
        """#

    static let files = #"""
        .TP
        .I /usr/share/vitrine/
        Resources: the demo app
        .RI ( demo/ )
        and, where present, error pages, the JavaScript SDK and sample configurations
        .RI ( configs/ ).
        .TP
        .I /etc/vitrine/kiosk.toml
        The configuration of the kiosk session.
        .TP
        .I /usr/share/vitrine/configs/
        Sample configuration files, with every setting explained.
        .TP
        .I ~/.local/share/APP\-ID/
        An app's own data (the
        .B storage
        capability's
        .IR storage.json ,
        the remembered
        .IR window.json ),
        under
        .B $XDG_DATA_HOME
        when set; the stock program's is
        .IR org.vitrine.Vitrine/ .
        Data that earlier versions kept in
        .I ~/.local/share/vitrine/APP\-ID/
        moves there at the app's first start.
        .TP
        .I /lib/systemd/system/vitrine\-kiosk.service
        A systemd unit that runs
        .B vitrine
        fullscreen under the
        .BR cage (1)
        Wayland kiosk compositor on tty1, as the user
        .BR vitrine\-kiosk .
        It is installed disabled.
        .TP
        .I /usr/libexec/vitrine/kiosk\-session
        The script that unit starts: it runs
        .B cage \-\- vitrine \-\-config
        .IR FILE .
        """#

    static let examples = #"""
        Open a web site in a 1024 by 768 window:
        .PP
        .RS
        .EX
        vitrine https://example.org/ \-\-width 1024 \-\-height 768
        .EE
        .RE
        .PP
        Take a screenshot of the demo app without a screen:
        .PP
        .RS
        .EX
        xvfb\-run \-a vitrine \-\-exit\-after\-load \-\-screenshot /tmp/demo.png
        .EE
        .RE
        .PP
        Log every decision of a kiosk run to standard output:
        .PP
        .RS
        .EX
        vitrine \-\-preset kiosk \-\-events \- https://example.org/
        .EE
        .RE
        .PP
        Check, then open, a configuration file:
        .PP
        .RS
        .EX
        vitrine check\-config /etc/vitrine/kiosk.toml
        vitrine \-\-config /etc/vitrine/kiosk.toml \-\-no\-fullscreen
        .EE
        .RE
        .PP
        Serve a local web app from a folder:
        .PP
        .RS
        .EX
        vitrine \-\-app\-dir ~/my\-app \-\-width 800 \-\-height 600
        .EE
        .RE
        .PP
        Set up the kiosk session (after creating the user and editing
        .IR /etc/vitrine/kiosk.toml ):
        .PP
        .RS
        .EX
        sudo apt install cage xwayland
        sudo systemctl enable \-\-now vitrine\-kiosk.service
        journalctl \-u vitrine\-kiosk.service \-f
        .EE
        .RE
        """#

    static let seeAlso = #"""
        .BR vitrine.toml (5),
        .BR cage (1),
        .BR xvfb\-run (1),
        .BR systemctl (1),
        .BR journalctl (1)
        .PP
        The README in the source tree and
        .I /usr/share/doc/vitrine/
        """#
}
