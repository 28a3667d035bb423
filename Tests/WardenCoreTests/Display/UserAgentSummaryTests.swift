import Testing
import WardenCore
import WardenWire

/// The `s` of a sign-in push (SPEC §12): browser and operating system from real `User-Agent` headers.
@Suite("UserAgentSummary")
struct UserAgentSummaryTests {
    @Test(
        "common browsers, most specific token first",
        arguments: [
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome", "131", "Linux", nil
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
                    + "Safari/537.36 Edg/131.0.2903.86", "Edge", "131", "Windows", "10"
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                    + "Version/18.1 Safari/605.1.15", "Safari", "18", "macOS", "10"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                    + "Version/18.1 Mobile/15E148 Safari/604.1", "Safari", "18", "iOS", "18"
            ),
            (
                "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", "Firefox", "133", "Android",
                "14"
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.6723.116 "
                    + "Safari/537.36", "Chrome", "130", "Linux", nil
            ),
        ] as [(String, String, String, String, String?)])
    func browsers(header: String, browser: String, version: String, os: String, osVersion: String?) {
        let summary = UserAgentSummary(header)
        #expect(summary.browser == .init(name: browser, version: version))
        #expect(summary.os == .init(name: os, version: osVersion))
    }

    @Test func theSourceFieldOfAPush() {
        let summary = UserAgentSummary("curl/8.11.1")
        #expect(summary.source == ["b": ["n": "curl", "v": "8"]])
        #expect(UserAgentSummary(nil).source == nil)
        #expect(UserAgentSummary("something else").source == nil)
        // attacker-controlled: only the first 512 characters are read
        let long = String(repeating: "x", count: 600) + " Firefox/1"
        #expect(UserAgentSummary(long).browser == nil)
    }
}
