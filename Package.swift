// swift-tools-version: 6.1
import PackageDescription

/// One set of settings for every target (Hummingbird's convention).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "warden",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "warden", targets: ["warden"]),
        .library(name: "WardenWire", targets: ["WardenWire"]),
        .library(name: "WardenCore", targets: ["WardenCore"]),
        .library(name: "WardenServer", targets: ["WardenServer"]),
        .library(name: "WardenAuthenticator", targets: ["WardenAuthenticator"]),
        .library(name: "WardenAuthenticatorURLSession", targets: ["WardenAuthenticatorURLSession"]),
        .library(name: "WardenClient", targets: ["WardenClient"]),
        .library(name: "WardenResourceServer", targets: ["WardenResourceServer"]),
        .library(name: "WardenWebAuthn", targets: ["WardenWebAuthn"]),
        .library(name: "WardenXMLSecurity", targets: ["WardenXMLSecurity"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", from: "0.12.1"),
    ],
    targets: [
        // What the SDKs and the server share on the wire: JSON values, authorization_details, OAuth error codes,
        // base64url, compact JWS parsing and verification, PKCE, the CIBA login hint. Nothing else of Warden's.
        .target(
            name: "WardenWire",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WardenCore",
            dependencies: [
                "WardenWire",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Accounts/common-passwords.txt"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedTextFiles"]
        ),
        .target(
            name: "WardenStorage",
            dependencies: [
                "WardenCore", "WardenWire",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // E-mail: the message format (RFC 5322, MIME), the SMTP client (RFC 5321, STARTTLS, AUTH) and the outbox
        // folder; nothing of the server's.
        .target(
            name: "WardenMail",
            dependencies: [
                "WardenCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Text files embedded in the code at build time (Plugins/EmbedTextFiles): the OpenAPI document, the common
        // passwords.
        .executableTarget(name: "embed-text", path: "Tools/EmbedText", swiftSettings: swiftSettings),
        // Seeds millions of log events through the storage layer for scripts/bench-scale (issue 16).
        .executableTarget(
            name: "warden-bench-seed",
            dependencies: ["WardenCore", "WardenStorage", .product(name: "Logging", package: "swift-log")],
            path: "Tools/WardenBenchSeed", swiftSettings: swiftSettings),
        .plugin(name: "EmbedTextFiles", capability: .buildTool(), dependencies: ["embed-text"]),
        .target(
            name: "WardenServer",
            dependencies: [
                "WardenCore", "WardenWire", "WardenMail", "WardenWebAuthn",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            exclude: ["ManagementAPI/openapi.json"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedTextFiles"]
        ),
        .target(
            name: "WardenTesting",
            dependencies: [
                "WardenCore", "WardenWire",
                "WardenStorage",
                "WardenServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WardenAuthenticator",
            dependencies: [
                "WardenWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WardenAuthenticatorURLSession",
            dependencies: ["WardenAuthenticator"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WardenClient",
            dependencies: [
                "WardenWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // APIs and MCP servers that accept Warden's access tokens (SPEC §13): WardenClient's JWKS and JWT checks,
        // Hummingbird middleware; no server module.
        .target(
            name: "WardenResourceServer",
            dependencies: [
                "WardenClient", "WardenWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The WebAuthn relying party's checks (SPEC §17, WebAuthn Level 3 §7): a bounded CBOR decoder, authenticator
        // data, COSE keys, client data, registration and assertion verification; nothing of Warden's, so the SDKs
        // can use it.
        .target(
            name: "WardenWebAuthn",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // XML signatures for SAML (SPEC §16) on libxmlsec1 with OpenSSL and libxml2 (Debian `libxmlsec1-dev`,
        // Homebrew `libxmlsec1`): the system library, a C shim for what Swift cannot import (xmlsec's ids are macros,
        // libxml2's hooks are C callbacks), and the one Swift module that parses safely, finds elements by ID,
        // verifies a signature with a pinned certificate and hands back the signed element, signs, and
        // canonicalizes. Nothing else in Warden touches XML signatures; nothing of Warden's is a dependency.
        .systemLibrary(
            name: "CXMLSec",
            pkgConfig: "xmlsec1-openssl",
            providers: [.apt(["libxmlsec1-dev"]), .brew(["libxmlsec1"])]
        ),
        .target(name: "CXMLSecShim", dependencies: ["CXMLSec"]),
        .target(
            name: "WardenXMLSecurity",
            dependencies: ["CXMLSec", "CXMLSecShim"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "warden",
            dependencies: [
                "WardenCore", "WardenWire",
                "WardenStorage",
                "WardenServer",
                "WardenAuthenticator",
                "WardenClient",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Local stand-ins for APNs (HTTP/2 over TLS) and FCM (OAuth token + HTTP v1 send over HTTPS) that check
        // what those services require and record what they receive; used by the interoperability tests.
        .executableTarget(
            name: "WardenPushFake",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/WardenPushFake",
            swiftSettings: swiftSettings
        ),
        // The runnable examples of the README walkthrough, on the WardenClient SDK: an agent asking for a
        // transfer's approval by CIBA, the resource server it calls, and a native app opening the web app.
        .executableTarget(
            name: "ciba-agent",
            dependencies: [
                "WardenClient", "WardenWire", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/ciba-agent",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "protected-api",
            dependencies: [
                "WardenResourceServer", "WardenWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Examples/protected-api",
            swiftSettings: swiftSettings
        ),
        // An MCP server (Streamable HTTP) behind Warden's access tokens whose money transfers a person approves
        // by CIBA (SPEC §13).
        .executableTarget(
            name: "mcp-bank",
            dependencies: [
                "WardenResourceServer", "WardenClient", "WardenWire",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Examples/mcp-bank",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "native-to-web",
            dependencies: [
                "WardenClient", "WardenWire", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/native-to-web",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "wardenTests",
            dependencies: ["warden", "WardenWire", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenCoreTests",
            dependencies: [
                "WardenCore", "WardenWire", "WardenTesting", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenStorageTests",
            dependencies: [
                "WardenCore", "WardenWire", "WardenStorage", "WardenTesting",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenServerTests",
            dependencies: [
                "WardenCore", "WardenWire", "WardenStorage", "WardenServer", "WardenMail", "WardenTesting",
                "WardenAuthenticator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenClientTests",
            dependencies: [
                "WardenClient", "WardenCore", "WardenWire", "WardenServer", "WardenTesting", "WardenAuthenticator",
                "WardenAuthenticatorURLSession",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenResourceServerTests",
            dependencies: [
                "WardenResourceServer", "WardenClient", "WardenCore", "WardenWire", "WardenServer", "WardenTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenAuthenticatorTests",
            dependencies: [
                "WardenAuthenticator", "WardenAuthenticatorURLSession", "WardenWire",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenWebAuthnTests",
            dependencies: [
                "WardenWebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            resources: [.copy("Resources/w3c-test-vectors.json")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WardenXMLSecurityTests",
            dependencies: ["WardenXMLSecurity"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
