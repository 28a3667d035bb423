import WardenWire

/// Where a CIBA request came from, as far as the server knows (SPEC §7.2 `s`:
/// `{"b": {"n", "v"}, "os": {"n", "v"}}`).
public struct AuthenticationSource: Sendable, Hashable, Codable {
    /// A named, versioned piece of software.
    public struct Agent: Sendable, Hashable, Codable {
        /// The name (`n`), e.g. `"Chrome"`.
        public var name: String?
        /// The version (`v`), e.g. `"124.0"`.
        public var version: String?

        /// Creates an agent.
        public init(name: String?, version: String?) {
            self.name = name
            self.version = version
        }

        enum CodingKeys: String, CodingKey {
            case name = "n"
            case version = "v"
        }
    }

    /// The browser or client application (`b`).
    public var browser: Agent?
    /// The operating system (`os`).
    public var operatingSystem: Agent?

    /// Creates a source.
    public init(browser: Agent?, operatingSystem: Agent?) {
        self.browser = browser
        self.operatingSystem = operatingSystem
    }

    enum CodingKeys: String, CodingKey {
        case browser = "b"
        case operatingSystem = "os"
    }

    init?(json: JSONValue?) {
        guard let object = json?.objectValue else { return nil }
        func agent(_ value: JSONValue?) -> Agent? {
            guard let object = value?.objectValue else { return nil }
            return Agent(name: object["n"]?.stringValue, version: object["v"]?.stringValue)
        }
        self.init(browser: agent(object["b"]), operatingSystem: agent(object["os"]))
    }
}
