// Package artifacts gives tests a folder for the files they make for a
// person to open — HTML timelines, failing histories, screenshots —
// without writing into the source tree:
//
//   - with ZABLAB_ARTIFACTS=<dir> set: <dir>/<test name>/, kept;
//   - with go test -artifacts: the test's t.ArtifactDir(), kept;
//   - otherwise, for a file a failure names (Keep): a new folder under the
//     system's temporary folder, kept so the reader can open it;
//   - otherwise (Scratch): a folder removed when the test ends.
package artifacts
