import Crypto

import struct Foundation.Data

extension BackchannelRequest {
    /// The identity of a CIBA request: the SHA-256 of its `auth_req_id` (CIBA Core §7.3), which itself is never
    /// stored (SPEC §3). Computed once from the `auth_req_id` a client sends, or parsed once from storage, a job
    /// payload or an announcement; held inline as four words, so it is a cheap dictionary key.
    ///
    /// Stored, announced and encoded (`Codable`) as 64 lower-case hex digits, ``hex``.
    public struct ID: Hashable, Sendable, Codable, CustomStringConvertible {
        private let word0: UInt64
        private let word1: UInt64
        private let word2: UInt64
        private let word3: UInt64

        /// The identity of the request an `auth_req_id` names. Any string has one; an `auth_req_id` Warden
        /// never issued names no stored request.
        public init(authRequestID: String) {
            let digest = SHA256.hash(data: Data(authRequestID.utf8))
            var words: [UInt64] = [0, 0, 0, 0]
            for (index, byte) in digest.enumerated() {
                words[index / 8] = words[index / 8] << 8 | UInt64(byte)
            }
            (word0, word1, word2, word3) = (words[0], words[1], words[2], words[3])
        }

        /// Parses ``hex``; `nil` unless `hex` is 64 lower-case hex digits.
        public init?(hex: String) {
            let utf8 = hex.utf8
            guard utf8.count == 64 else { return nil }
            var words: [UInt64] = [0, 0, 0, 0]
            for (index, character) in utf8.enumerated() {
                guard let nibble = Self.nibble(character) else { return nil }
                words[index / 16] = words[index / 16] << 4 | UInt64(nibble)
            }
            (word0, word1, word2, word3) = (words[0], words[1], words[2], words[3])
        }

        /// The SHA-256 as 64 lower-case hex digits: the stored `ciba_requests.id`.
        public var hex: String {
            [word0, word1, word2, word3].map { word in
                let digits = String(word, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
        }

        public var description: String { hex }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let id = Self(hex: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Not a CIBA request id (64 lower-case hex digits)")
            }
            self = id
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(hex)
        }

        private static func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            default: nil
            }
        }
    }
}
