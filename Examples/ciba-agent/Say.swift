import Foundation

/// Writes `text` and a newline to standard output at once, unbuffered, so that a pipe reading the agent sees
/// each line as it happens and in order with the waiting line.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
