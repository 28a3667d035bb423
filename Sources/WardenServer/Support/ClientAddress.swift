import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WardenCore

/// The client IP of a request (SPEC §1 `--trusted-proxies`): the socket peer, or the right-most
/// `X-Forwarded-For` address not itself a trusted proxy when the peer is one.
enum ClientAddress {
    static func ip(of request: Request, context: WardenRequestContext, trusted: [CIDR]) -> String? {
        guard let peer = context.remoteAddress?.ipAddress else { return nil }
        guard !trusted.isEmpty, trusted.contains(where: { $0.contains(peer) }),
            let forwarded = request.headers[.init("X-Forwarded-For")!]
        else { return peer }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() where !trusted.contains(where: { $0.contains(hop) }) {
            return IPAddress(hop) != nil ? hop : peer
        }
        return hops.first ?? peer
    }
}

/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `::1/128`); a bare address is a /32 or /128.
struct CIDR: Sendable, Equatable {
    let network: IPAddress
    let prefixLength: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = IPAddress(parts[0]) else { return nil }
        let maxPrefix = address.bitWidth
        let prefix = parts.count == 2 ? Int(parts[1]) : maxPrefix
        guard let prefix, (0...maxPrefix).contains(prefix) else { return nil }
        network = address
        prefixLength = prefix
    }

    /// Whether `address` lies in this network (an IPv4-mapped IPv6 address, as a dual-stack socket reports an
    /// IPv4 peer, counts as that IPv4 address).
    func contains(_ address: String) -> Bool {
        switch (network, IPAddress(address)?.unmappingIPv4) {
        case (.v4(let network), .v4(let address)?): Self.sharePrefix(network, address, prefixLength)
        case (.v6(let network), .v6(let address)?): Self.sharePrefix(network, address, prefixLength)
        default: false
        }
    }

    private static func sharePrefix<Bits: FixedWidthInteger & UnsignedInteger>(
        _ first: Bits, _ second: Bits, _ length: Int
    ) -> Bool {
        length == 0 || (first ^ second) >> (Bits.bitWidth - length) == 0
    }
}
