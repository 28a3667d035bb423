import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WardenCore

@testable import WardenServer

/// ``PageBranding`` (SPEC §19 `branding`): the style sheet holds only hex colors, whatever was stored; the logo's
/// origin (https only) is what the page's `img-src` gains.
@Suite("Page branding")
struct PageBrandingTests {
    private func organization(logo: String?, primary: String?, background: String?) -> Organization {
        Organization(
            id: "org_x", name: "acme", displayName: "Acme <Corp>",
            branding: .init(logoURL: logo, colors: .init(primary: primary, pageBackground: background)))
    }

    @Test func colorsBecomeTheStyleSheetAndTheLogoItsOrigin() {
        let branding = PageBranding(
            organization(logo: "https://cdn.acme.test:8443/a/logo.png", primary: "#a30", background: "#102030"))
        #expect(branding.css.contains("background:#a30") && branding.css.contains("body{background:#102030}"))
        #expect(branding.logoOrigin == "https://cdn.acme.test:8443")
        #expect(branding.logoURL == "https://cdn.acme.test:8443/a/logo.png")
        #expect(branding.name == "Acme <Corp>")
    }

    @Test func anythingButAHexColorOrAnHTTPSLogoIsLeftOut() {
        let branding = PageBranding(
            organization(
                logo: "http://cdn.acme.test/logo.png", primary: "red;}body{display:none", background: "#12345g"))
        #expect(branding.css.isEmpty)
        #expect(branding.logoURL == nil && branding.logoOrigin == nil)
    }

    @Test func aBrandedPageAllowsItsStyleSheetAndLogoInItsPolicyOnly() {
        let branding = PageBranding(
            organization(logo: "https://cdn.acme.test/logo.png", primary: "#aa3300", background: nil))
        var page = LoginPage(clientName: "App", formAction: "/u/login", state: "s", csrf: "c", email: "")
        let plain = PageRenderer.shared.response(page).headers[.contentSecurityPolicy] ?? ""
        page.branding = branding
        let branded = PageRenderer.shared.response(page).headers[.contentSecurityPolicy] ?? ""
        #expect(!plain.contains("cdn.acme.test") && branded.contains("img-src 'self' data: https://cdn.acme.test;"))
        #expect(
            branded.components(separatedBy: "'sha256-").count == plain.components(separatedBy: "'sha256-").count + 1)
    }
}
