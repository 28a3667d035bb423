import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting

@testable import WardenServer

/// An unexpected error answers 500 `server_error` in its route group's shape (SPEC §7, §9, §11), decided by the
/// group the route is in rather than by its path, and never shows the error's text.
@Suite("routing: error shapes by route group")
struct ErrorShapeTests {
    struct Unexpected: Error, CustomStringConvertible {
        var description: String { "secret internal detail" }
    }

    /// The router's middleware in the OAuth shape, and a group in the Management shape whose paths carry no
    /// prefix the unmatched-route rule knows.
    func application(store: any WardenStore) -> some ApplicationProtocol {
        let router = Router(context: WardenRequestContext.self)
        router.middlewares.add(ErrorMiddleware(store: store))
        router.get("plain/fails") { _, _ -> Response in throw Unexpected() }
        let group = router.group("grouped")
            .add(middleware: ErrorMiddleware(store: store, shape: .management, logsRefusals: false))
        group.get("fails") { _, _ -> Response in throw Unexpected() }
        group.get("refuses") { _, _ -> Response in throw ManagementError.invalidToken("no token") }
        return Application(router: router)
    }

    @Test func anUnexpectedErrorTakesItsGroupsShape() async throws {
        let warden = try await TestWarden.make()
        try await application(store: warden.runtime.store).test(.router) { http in
            let oauth = try await http.execute(uri: "/plain/fails", method: .get)
            expectError(oauth, status: .internalServerError, code: "server_error")
            let management = try await http.execute(uri: "/grouped/fails", method: .get)
            expectError(management, status: .internalServerError, code: "server_error", shape: .management)
            for response in [oauth, management] {
                #expect(!String(buffer: response.body).contains("secret internal detail"))
            }
        }
    }

    @Test func aRefusalInAGroupPassesThroughUnchanged() async throws {
        let warden = try await TestWarden.make()
        try await application(store: warden.runtime.store).test(.router) { http in
            let response = try await http.execute(uri: "/grouped/refuses", method: .get)
            expectError(response, status: .unauthorized, code: "invalid_token", shape: .management)
        }
    }
}
