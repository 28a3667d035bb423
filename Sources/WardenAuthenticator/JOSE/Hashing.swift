import Crypto
import Foundation

/// SHA-256 (FIPS 180-4) through swift-crypto.
enum Hashing {
    static func sha256(_ data: some DataProtocol) -> Data {
        Data(SHA256.hash(data: data))
    }
}
