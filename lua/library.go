package lua

import "strings"

// LibraryName is the name the course's scripts take as a Redis 7.0
// function library (FUNCTION LOAD, FCALL).
const LibraryName = "emq"

// Library is the course's scripts as one Redis 7.0 function library, for a
// learner who wants FCALL enqueue instead of EVALSHA: each script's text,
// unchanged, is the body of a function registered under the script's name.
// A function is handed its keys and arguments as its two parameters, not
// as globals; calling them KEYS and ARGV lets every line of the script
// read them as it does under EVAL, so the library runs the exact scripts.
func Library() string {
	var b strings.Builder
	b.WriteString("#!lua name=" + LibraryName + "\n")
	b.WriteString("-- The course's scripts, each the body of a function of its name:\n")
	b.WriteString("-- FCALL enqueue 2 <row> <pending> <id> <payload>\n")
	b.WriteString("-- FCALL claim 2 <pending> <active> <row prefix> <lease ms>\n")
	for _, s := range All() {
		b.WriteString("redis.register_function('" + s.Name + "', function(KEYS, ARGV)\n")
		b.WriteString(s.Source)
		if !strings.HasSuffix(s.Source, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("end)\n")
	}
	return b.String()
}
