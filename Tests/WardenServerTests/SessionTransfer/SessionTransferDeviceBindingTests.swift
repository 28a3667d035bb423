import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// SPEC §8 `enforce_device_binding`: the consumer of a session transfer token must share the creator's IP or ASN.
@Suite("SessionTransfer: device binding")
struct SessionTransferDeviceBindingTests {
    typealias Info = LoginEvent.RequestInfo

    @Test(arguments: [
        (Info(ip: "203.0.113.7"), Info(ip: "203.0.113.7"), true),
        (Info(ip: "2001:db8::1"), Info(ip: "2001:db8:0:0::1"), true),
        (Info(ip: "203.0.113.7"), Info(ip: "::ffff:203.0.113.7"), true),
        (Info(ip: "203.0.113.7"), Info(ip: "203.0.113.8"), false),
        (Info(ip: nil), Info(ip: nil), false),
        (Info(ip: "203.0.113.7"), Info(ip: nil), false),
    ])
    func ipBinding(creator: Info, consumer: Info, satisfied: Bool) {
        #expect(DeviceBinding.ip.isSatisfied(creator: creator, consumer: consumer) == satisfied)
    }

    @Test(arguments: [
        (Info(ip: "127.0.0.1", asn: 64500), Info(ip: "127.0.0.9", asn: 64500), true),
        (Info(ip: "127.0.0.1", asn: 64500), Info(ip: "127.0.0.2", asn: 64501), false),
        (Info(ip: "127.0.0.1", asn: nil), Info(ip: "127.0.0.1", asn: nil), false),
        (Info(ip: "127.0.0.1", asn: 64500), Info(ip: "127.0.0.1", asn: nil), false),
        (Info(ip: "10.0.0.1", asn: 0), Info(ip: "10.0.0.2", asn: 0), false),
    ])
    func asnBinding(creator: Info, consumer: Info, satisfied: Bool) {
        #expect(DeviceBinding.asn.isSatisfied(creator: creator, consumer: consumer) == satisfied)
    }

    @Test func noBindingAcceptsAnyone() {
        #expect(DeviceBinding.none.isSatisfied(creator: Info(ip: "203.0.113.7"), consumer: Info(ip: nil)))
    }

    /// Over real TCP connections from 127.0.0.1, a trusted proxy: the client IP is the `X-Forwarded-For` one.
    @Test func ipBindingComparesTheClientAddresses() async throws {
        let warden = try await TestWarden.make { $0.trustedProxies = ["127.0.0.1/32", "::1/128"] }
        let fixture = try await SessionTransferFixture.make(warden: warden) {
            $0.sessionTransfer?.enforceDeviceBinding = .ip
        }
        let phone: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]
        let laptop: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.8"]
        try await warden.application().test(.live) { http in
            let elsewhere = try await fixture.sessionTransferToken(http: http, headers: phone)
            #expect(try await fixture.authorize(http: http, query: elsewhere, headers: laptop).isLoginRedirect)
            // A refused presentation used the token up.
            #expect(try await fixture.authorize(http: http, query: elsewhere, headers: phone).isLoginRedirect)

            let here = try await fixture.sessionTransferToken(http: http, headers: phone)
            #expect(try await fixture.authorize(http: http, query: here, headers: phone).isCodeRedirect)
            let direct = try await fixture.sessionTransferToken(http: http)
            #expect(try await fixture.authorize(http: http, query: direct).isCodeRedirect)
        }
    }
}
