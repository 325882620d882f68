import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTesting

/// `--automation`'s decisions: who may be driven, what a session keeps, the name it matches.
@Suite("Automation (WebDriver) configuration")
struct AutomationConfigTests {
    private func configuration(_ text: String) throws -> Configuration {
        try ConfigFile(text: text, path: "/tmp/automation.toml").configuration(overrides: ConfigOverrides())
    }

    @Test func kiosksRefuseAutomationUnlessTheirFileAllowsIt() throws {
        #expect(try configuration("preset = \"kiosk\"\nstart-url = \"https://k.example/\"").automationRefusal?
            .contains("[security] allow-automation = false") == true)
        #expect(try configuration("preset = \"kiosk\"\nstart-url = \"https://k.example/\"\n[security]\nallow-automation = true")
            .automationRefusal == nil)
        #expect(try configuration("preset = \"app\"\nstart-url = \"https://a.example/\"").automationRefusal == nil)
        #expect(try configuration("preset = \"app\"\nstart-url = \"https://a.example/\"\n[security]\nallow-automation = false")
            .automationRefusal != nil)
    }

    /// Only a file says it: the command line (which the driver's client writes) cannot.
    @Test func theCommandLineCannotAllowAutomation() {
        #expect(throws: ConfigCommandLineError.self) { try ConfigOverrides(commandLine: ["allow-automation": ["true"]]) }
    }

    /// A pushed configuration cannot change it either.
    @Test func aPushCannotAllowAutomation() {
        let pushed = "preset = \"kiosk\"\nstart-url = \"https://k.example/\"\n[security]\nallow-automation = true\n"
        #expect(throws: ConfigFileError.self) { try ConfigFile.checkPush(pushed, replacing: nil, at: "/tmp/kiosk.toml") }
    }

    @Test func aSessionKeepsNothingAndTheLayoutIsNotRestored() throws {
        let kept = try configuration("""
            preset = "app"
            start-url = "https://a.example/"
            [storage]
            persistent = true
            data-directory = "/tmp/kept"
            """)
        #expect(kept.websiteDataStorage == .persistent(directory: URL(fileURLWithPath: "/tmp/kept")))
        #expect(kept.remembersWindowState)
        let driven = kept.forAutomation()
        #expect(driven.websiteDataStorage == .ephemeral)
        #expect(!driven.remembersWindowState)
        #expect(driven.navigationChain.names == kept.navigationChain.names, "the same chain")
        #expect(driven.strategies.identifiers == kept.strategies.identifiers, "the same strategies")
        #expect(driven.appOrigins == kept.appOrigins && driven.startURL == kept.startURL)
    }

    @Test func theBrowserNameIsVitrineOrTheAppsOwnId() throws {
        #expect(try ConfigOverrides().configurator().build().automationBrowserName == "vitrine")
        #expect(try ConfigOverrides(startURL: URL(string: "https://a.example/")).configurator().build().automationBrowserName == "vitrine")
        #expect(try configuration("app-id = \"com.example.Notes\"\nstart-url = \"https://a.example/\"").automationBrowserName
            == "com.example.Notes")
    }

    /// A session keeps compositing on: with `never` (the software renderer's choice, or the
    /// file's) WebDriver's Take Screenshot is never answered. Only `always` stays as written.
    @Test func aSessionKeepsCompositingOnWhateverTheRenderer() throws {
        let llvmpipe = "llvmpipe (LLVM 15.0.6, 256 bits)"
        let app = try configuration("preset = \"app\"\nstart-url = \"https://a.example/\"")
        #expect(!app.drivenByAutomation && app.forAutomation().drivenByAutomation)
        let alone = RenderingChoice(configured: app.hardwareAcceleration, renderer: llvmpipe)
        #expect(alone.policy == .never && alone.reason == .softwareRenderer, "without a session: off on llvmpipe")
        let driven = app.forAutomation()
        let session = RenderingChoice(configured: driven.hardwareAcceleration, renderer: llvmpipe, automation: driven.drivenByAutomation)
        #expect(session.policy == nil && session.policyName == "auto" && session.reason == .automation)
        #expect(session.renderer == llvmpipe, "the renderer is still logged")
        for (configured, policy, reason) in [(HardwareAcceleration.never, "auto", RenderingChoice.Reason.automation),
                                             (.auto, "auto", .automation), (.always, "always", .configured)] {
            let chosen = RenderingChoice(configured: configured, renderer: nil, automation: true)
            #expect(chosen.policyName == policy && chosen.reason == reason, "\(configured)")
        }
    }

    /// WebKit reads `WEBKIT_DISABLE_COMPOSITING_MODE` over any policy, and WebKitGTK 2.50
    /// composites only through the DMA-BUF renderer that `WEBKIT_DISABLE_DMABUF_RENDERER` turns
    /// off, so a session started with either set is warned (WebKit treats any value but "0" as set).
    @Test func aSessionIsWarnedWhenItsEnvironmentTurnsCompositingOff() {
        #expect(RenderingChoice.automationWarning(environment: [:]) == nil)
        for name in ["WEBKIT_DISABLE_COMPOSITING_MODE", "WEBKIT_DISABLE_DMABUF_RENDERER"] {
            #expect(RenderingChoice.automationWarning(environment: [name: "0"]) == nil)
            for value in ["1", "", "yes"] {
                let warning = RenderingChoice.automationWarning(environment: [name: value])
                #expect(warning?.hasPrefix("\(name)=\(value) turns WebKit's compositing off") == true, "\(name)=\(value)")
                #expect(warning?.contains("Take Screenshot will not answer") == true)
            }
        }
    }
}
