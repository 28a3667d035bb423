import Foundation
import WardenCore

/// The JSON input of a ``DeliveryJob`` kind.
protocol JobPayload: Codable, Sendable {}

extension JobPayload {
    /// The payload as stored.
    var json: String {
        // Encoding a struct of strings cannot fail.
        String(decoding: try! JSONEncoder().encode(self), as: UTF8.self)
    }

    /// The payload of `job`; a payload that does not parse is a permanent failure.
    init(of job: DeliveryJob) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(job.payload.utf8))
        } catch {
            throw DeliveryFailure.permanent("malformed \(job.kind.rawValue) job: \(error)")
        }
    }
}
