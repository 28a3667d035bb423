/// A connection option Warden refuses (SPEC §15: "Bad options → 400 `invalid_body` naming the option").
///
/// ``description`` is the Management API's message, in the shape of its other payload errors; ``option`` is the
/// path of the option under `options`, e.g. `attribute_map.mapping_mode`.
public struct ConnectionOptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The option's path under `options`, segments joined by `.`.
    public let option: String
    /// What is wrong with it.
    public let problem: String

    public init(option: String, problem: String) {
        self.option = option
        self.problem = problem
    }

    public var description: String { "Payload validation error: '\(problem)' on property options.\(option)." }

    /// The 400 `invalid_body` the Management API answers.
    public var managementError: ManagementError { .invalidBody(description) }
}
