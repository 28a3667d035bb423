import Foundation

/// Writes `text` and a newline to standard output at once, unbuffered, so that a pipe sees each line as it happens.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
