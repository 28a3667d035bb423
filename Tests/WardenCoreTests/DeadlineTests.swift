import Testing
import WardenWire

@testable import WardenCore

/// ``Deadline`` (SPEC §11, `/readyz` against a frozen database): an answer within the limit is passed on, an
/// operation that never answers — and ignores cancellation — is given up at the limit.
@Suite("Deadline")
struct DeadlineTests {
    struct Failure: Error, Equatable {}

    @Test func anAnswerWithinTheLimitIsPassedOn() async throws {
        #expect(try await Deadline.run(within: .seconds(60)) { 42 } == 42)
        await #expect(throws: Failure()) { try await Deadline.run(within: .seconds(60)) { throw Failure() } }
    }

    @Test func anOperationThatNeverAnswersIsGivenUp() async throws {
        // A stream nothing is sent on: a query to a frozen database (ended after the test).
        let (silence, end) = AsyncStream<Void>.makeStream()
        defer { end.finish() }
        let error = await #expect(throws: Deadline.Exceeded.self) {
            try await Deadline.run(within: .milliseconds(50)) {
                for await _ in silence {}
                return 0
            }
        }
        #expect(error?.limit == .milliseconds(50))
    }
}
