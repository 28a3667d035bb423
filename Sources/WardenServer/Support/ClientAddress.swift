import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

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
            return CIDR.parseAddress(hop) != nil ? hop : peer
        }
        return hops.first ?? peer
    }
}

/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `::1/128`); a bare address is a /32 or /128.
struct CIDR: Sendable, Equatable {
    let network: [UInt8]
    let prefixLength: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = Self.parseAddress(parts[0]) else { return nil }
        let maxPrefix = address.count * 8
        let prefix = parts.count == 2 ? Int(parts[1]) : maxPrefix
        guard let prefix, (0...maxPrefix).contains(prefix) else { return nil }
        network = address
        prefixLength = prefix
    }

    /// Whether `address` lies in this network.
    func contains(_ address: String) -> Bool {
        guard let bytes = Self.parseAddress(address), bytes.count == network.count else { return false }
        var remaining = prefixLength
        for index in bytes.indices where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != network[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) address.
    static func parseAddress(_ text: String) -> [UInt8]? {
        if let address = try? SocketAddress(ipAddress: text, port: 0) {
            switch address {
            case .v4(let v4):
                return withUnsafeBytes(of: v4.address.sin_addr.s_addr) { Array($0) }
            case .v6(let v6):
                return withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            default:
                return nil
            }
        }
        return nil
    }
}
