"""Shared fixtures: run the real command line (as a process, or in this process), build the
default deck and handout and the review decks once per run (shared by the xdist workers),
print the review decks in one LibreOffice run, and the `--regen` switch for golden files.

Builds run in this process unless the process is the point (exit codes, signals, streams,
a fresh interpreter's imports): a process pays for its imports and draws its charts again."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from deckgen import build, pipeline
from deckgen.build import Options
from deckgen.cli import run as run_deckgen

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONTENT = ROOT / "content.yaml"

# The dials a deck's layout is reviewed at: the default, both ends, a check that is not a
# preset, a walk, and a speed past the dial with no check.
REVIEW_DIALS = {
    "default": Options(),
    "100": Options(speed="100"),
    "2500-walk": Options(speed="2500", check="15 min", workload="candidates", walk=True),
    "40K": Options(speed="40K", check="1 h"),
    "3.3M": Options(speed="3.3M", check="0"),
}


REVIEW_ASPECTS = ("16:9", "4:3")


def review_name(dial: str, aspect: str) -> str:
    """The file stem of the review deck at `dial` (a REVIEW_DIALS key) and `aspect`."""
    return f"{dial}-{aspect.replace(':', 'x')}"


def print_pdf(deck: Path, out: Path, profile: Path) -> subprocess.CompletedProcess[str]:
    """Print `deck` to OUT/<stem>.pdf with LibreOffice Impress, in a profile of its own."""
    return print_pdfs([deck], out, profile)


def print_pdfs(decks: list[Path], out: Path,
               profile: Path) -> subprocess.CompletedProcess[str]:
    """Print every deck to OUT/<stem>.pdf in one LibreOffice run (it takes seconds to start)."""
    return subprocess.run(
        ["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
         "--convert-to", "pdf", "--outdir", str(out), *map(str, decks)],
        capture_output=True, text=True, timeout=600)


def python_prints(code: str) -> str:
    """What a fresh interpreter, started in the project's folder, prints running `code` (which
    must succeed): how a test sees which modules an import loads, untouched by this process's."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def faces_of(story: object) -> object:
    """The measured faces a story's slides are planned with (its theme's fonts, with the
    fallbacks its text needs), as a build resolves them."""
    import deckgen.story
    from deckgen import fonts
    from deckgen.plan.kinds.fitting import Faces

    theme = story.theme  # type: ignore[attr-defined]
    return Faces.of(fonts.typefaces(theme.heading_font, theme.body_font,
                                    deckgen.story.characters(story)))


def _drawn_on(story: object, template: bytes | None) -> object:
    from deckgen import template as templates

    if template is None:
        return templates.own(story.meta.aspect)  # type: ignore[attr-defined]
    return templates.load(template, Path("template.pptx"))


def arranged_of(story: object, template: bytes | None = None, walk: tuple = ()) -> list:
    """The story's slides as their kinds arrange them on `template` (deckgen's own master
    without one), with `walk` after the dial slide: the plan's first step."""
    import deckgen.story
    from deckgen import fonts, plan

    drawn_on = _drawn_on(story, template)
    heading, body = plan.fonts_of(story, drawn_on)  # type: ignore[arg-type]
    typefaces = fonts.typefaces(heading, body, deckgen.story.characters(story, walk))
    return plan.arrange(story, drawn_on, typefaces, walk).slides  # type: ignore[arg-type]


def placed_of(story: object, template: bytes | None = None, walk: tuple = ()) -> object:
    """The placed deck of a story on `template` (deckgen's own master without one)."""
    import deckgen.story
    from deckgen import fonts, plan

    drawn_on = _drawn_on(story, template)
    heading, body = plan.fonts_of(story, drawn_on)  # type: ignore[arg-type]
    typefaces = fonts.typefaces(heading, body, deckgen.story.characters(story, walk))
    return plan.plan(story, drawn_on, typefaces, walk)  # type: ignore[arg-type]


def deck_of(story: object, template: bytes | None = None, walk: tuple = (),
            warn: Callable[[object], None] | None = None, charts: str = "native") -> bytes:
    """The .pptx bytes of a story on `template`, as a build draws them in this process;
    the plan's warnings passed to `warn`."""
    from deckgen.paint import pptx

    deck = placed_of(story, template, walk)
    for problem in deck.warnings:  # type: ignore[attr-defined]
        if warn is not None:
            warn(problem)
    drawn_on = _drawn_on(story, template)
    return pptx.paint(deck, drawn_on.data, story.meta,  # type: ignore[arg-type, attr-defined]
                      charts=charts)


def chart_placed(chart: object, width_in: float, height_in: float, size: float = 16.0,
                 family: str = "Arial", theme: object = None) -> object:
    """A story's chart placed alone in a box `width_in` x `height_in` at the slide's top
    left, its text at `size` in `family`, in `theme`'s colours (the bundled talk's without
    one), as the plan places a chart on a slide."""
    import deckgen.story
    from deckgen import fonts, source
    from deckgen.box import Box, inch
    from deckgen.plan.charts.bar_chart import place_bars
    from deckgen.plan.charts.line_chart import place_lines
    from deckgen.plan.placed import Chart, Colour

    if theme is None:
        theme = source.read(DEFAULT_CONTENT)[0].theme
    roles = {role: getattr(theme, role) for role in ("text", "muted", "accent", "background",
                                                      "rule")}
    chars = deckgen.story.characters(chart)
    faces = (fonts.typeface(family, False, chars), fonts.typeface(family, True, chars))
    box = Box(0, 0, inch(width_in), inch(height_in))
    place = place_lines if isinstance(chart, deckgen.story.LineChart) else place_bars
    placement = place(chart, box, size, faces, roles)  # type: ignore[arg-type]
    return Chart(box, chart, size, placement, Colour(roles["background"], "background"),  # type: ignore[arg-type]
                 f"Chart: {chart.title}")  # type: ignore[attr-defined]


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`deckgen ARGS` as a user runs it: a fresh process, text output captured."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "deckgen", *args], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


def run_in(*args: str, cwd: Path | None = None,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`deckgen ARGS` in this process (deckgen.cli.run), answered like run_cli: the exit code
    and both streams. What a process adds (exit, signals, encodings) is run_cli's to test."""
    with contextlib.chdir(cwd or os.getcwd()), _environment(env or {}):
        code, out, err = run_deckgen(args)
    return subprocess.CompletedProcess(["deckgen", *args], code, out, err)


@contextlib.contextmanager
def _environment(extra: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# --- an output folder holding an earlier build: the hardening and transaction tests' ground ---

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
VALID = CORPUS / "_valid.yaml"
EARLIER = {"million-tokens-1M.pptx": b"an earlier deck",
           "million-tokens-1M.pdf": b"an earlier handout"}
NAMES = ("talk.pptx", "talk.pdf", "talk.html")  # any set of files, not only a pair


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file's bytes (a folder, link or pipe by its kind: reading a pipe would wait)."""
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() and not p.is_symlink()
            else f"<{p.lstat().st_mode >> 12}>".encode() for p in sorted(folder.rglob("*"))}


@pytest.fixture
def here(tmp_path: Path) -> Path:
    """A folder holding the valid content and an output folder with an earlier build."""
    shutil.copyfile(VALID, tmp_path / "talk.yaml")
    (tmp_path / "out").mkdir()
    for name, data in EARLIER.items():
        (tmp_path / "out" / name).write_bytes(data)
    return tmp_path


def pair(tag: str) -> dict[str, bytes]:
    """One build's files: every one names the build it came from."""
    return {name: f"{tag} {name} ".encode() * (200 + len(tag)) for name in NAMES}


def files(folder: Path, tag: str) -> dict[Path, bytes]:
    return {folder / name: data for name, data in pair(tag).items()}


@pytest.fixture
def earlier(tmp_path: Path) -> Path:
    """An output folder holding build A's files."""
    folder = tmp_path / "out"
    folder.mkdir()
    for path, data in files(folder, "A").items():
        path.write_bytes(data)
    return folder


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regen", action="store_true",
                     help="rewrite the golden files (tests/golden/, tests/bad_inputs/*.expected) "
                          "from what deckgen makes now; read the diff before committing it")


def regen(config: pytest.Config) -> bool:
    """True when the run was asked to rewrite golden files (`pytest --regen`)."""
    return bool(config.getoption("--regen")) or os.environ.get("DECKGEN_REGEN") == "1"


def only_file(folder: Path, suffix: str) -> Path:
    """The one file with `suffix` in `folder`; a build writes exactly one of each kind."""
    found = sorted(p for p in folder.glob(f"*{suffix}")
                   if suffix != ".pdf" or not p.name.endswith(("-slides.pdf", "-notes.pdf")))
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(scope="session", autouse=True)
def _content_search_stops_in_the_tests_own_folders(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A command run with no content path looks for content.yaml upward and stops at a
    repository's root: the run's base temp folder is made one, so a content.yaml someone
    left in /tmp is never found by a test."""
    (tmp_path_factory.getbasetemp() / ".git").mkdir(exist_ok=True)


@pytest.fixture
def default_text() -> str:
    return DEFAULT_CONTENT.read_text(encoding="utf-8")


def shared_folder(factory: pytest.TempPathFactory, name: str,
                  make: Callable[[Path], None]) -> Path:
    """A folder `make` fills once per test run: with xdist, the first worker that needs it
    makes it and the others wait for it and read it (they share the run's base temp folder)."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder, done = base / name, base / f"{name}.done"
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a worker that failed midway
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def _build_into(*args: str) -> Callable[[Path], None]:
    def make(out: Path) -> None:
        run = run_in("build", str(DEFAULT_CONTENT), *args, "--out", str(out))
        assert run.returncode == 0, run.stderr
    return make


def shared_build(factory: pytest.TempPathFactory, name: str, *args: str) -> Path:
    """The default content built with ARGS into a folder made once per test run (with xdist,
    once for every worker: shared_folder), in this process."""
    return shared_folder(factory, name, _build_into(*args))


@pytest.fixture(scope="session")
def default_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default content built once (deck and handout) into a folder shared by the tests, in
    this process (a build as a process is test_reproducible's and test_cli's to test)."""
    return shared_folder(tmp_path_factory, "default-build", _build_into())


@pytest.fixture(scope="session")
def other_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another dial, computed by hand in the tests: 2,500 tokens/sec, a 15 min check,
    featuring the critiqued candidates."""
    return shared_folder(tmp_path_factory, "other-build", _build_into(
        "--speed", "2500", "--check", "15 min", "--workload", "candidates"))


@pytest.fixture(scope="session")
def review_decks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The deck at every review dial in both aspects (`review_name(dial, aspect)`.pptx) and
    the default dial's walk (walk.pptx), built in this process once per run."""
    def make(out: Path) -> None:
        cases = {review_name(dial, aspect): replace(options, aspect=aspect, only="deck")
                 for dial, options in REVIEW_DIALS.items() for aspect in REVIEW_ASPECTS}
        cases["walk"] = Options(walk=True, only="deck")
        for name, options in cases.items():
            content, _ = build.prepare(None, options)
            (out / f"{name}.pptx").write_bytes(pipeline.files(content, options)[0]["deck"])
    return shared_folder(tmp_path_factory, "review-decks", make)


@pytest.fixture(scope="session")
def review_printed(review_decks: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every review deck printed to PDF by LibreOffice (`<stem>.pdf`), in one run."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed")

    def make(out: Path) -> None:
        decks = sorted(review_decks.glob("*.pptx"))
        run = print_pdfs(decks, out, out.parent / "review-printed-profile")
        assert len(list(out.glob("*.pdf"))) == len(decks), run.stderr or run.stdout
    return shared_folder(tmp_path_factory, "review-printed", make)


# --- LibreOffice Impress's bundled templates, exported to .pptx by LibreOffice itself ---------

PRESNT = Path("/usr/lib/libreoffice/share/template/common/presnt")
# Every presentation template LibreOffice Impress bundles: white, with artwork, dark, on
# pictures, 4:3 and 16:9.
EVERY_LIBREOFFICE = ("Beehive", "Blue_Curve", "Blueprint_Plans", "Candy", "DNA", "Focus",
                     "Forestbird", "Freshes", "Grey_Elegant", "Growing_Liberty", "Inspiration",
                     "Lights", "Metropolis", "Midnightblue", "Nature_Illustration", "Pencil",
                     "Piano", "Portfolio", "Progress", "Sunset", "Vintage", "Vivid", "Yellow_Idea")
# The plain run builds on eight that between them have the traits the others have: artwork
# in a pattern (Beehive) and over the text area (Blueprint_Plans), pictures on every master
# (Growing_Liberty, whose own placeholder idx of -1 is the one schema error of any template),
# a gradient no colour reads well on everywhere (Lights), dark (Midnightblue, its footer and
# slide-number art), a title master first (Progress, Vintage), 4:3 (Nature_Illustration,
# Vintage on a photo of old paper). DECKGEN_TEMPLATES=all builds on all 23 (about 20
# CPU-seconds more).
LIBREOFFICE = EVERY_LIBREOFFICE if os.environ.get("DECKGEN_TEMPLATES") == "all" else (
    "Beehive", "Blueprint_Plans", "Growing_Liberty", "Lights", "Midnightblue",
    "Nature_Illustration", "Progress", "Vintage")


@pytest.fixture(scope="session")
def libreoffice_templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """LibreOffice's bundled templates (LIBREOFFICE) exported to .pptx (by name), all in one
    soffice run, once per test run: test_templates builds on every one, test_template_look on
    two."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    if not PRESNT.is_dir():
        pytest.skip("LibreOffice's bundled presentation templates are not installed")
    sources = [PRESNT / f"{name}.otp" for name in LIBREOFFICE]
    assert all(path.exists() for path in sources), [p.name for p in sources if not p.exists()]

    def make(out: Path) -> None:
        run = subprocess.run(
            ["soffice", f"-env:UserInstallation=file://{out.parent / 'templates-profile'}",
             "--headless", "--convert-to", "pptx", "--outdir", str(out), *map(str, sources)],
            capture_output=True, text=True, timeout=300)
        missing = [name for name in LIBREOFFICE if not (out / f"{name}.pptx").exists()]
        assert not missing, (missing, run.stderr or run.stdout)
    folder = shared_folder(tmp_path_factory, "libreoffice-templates", make)
    return {name: folder / f"{name}.pptx" for name in LIBREOFFICE}


# Tests that build or draw real decks, handouts, PDFs or chart pictures (or drive a real
# build process), start deckgen processes (each pays for an interpreter and its imports: the
# import guards, the process contract, bombs under memory limits, closed and full output
# streams, a console's encoding), or take seconds for another reason (hundreds of generated
# examples, races run many times, a kill at every step, charts drawn at full resolution), but
# take no build fixture; `pytest -m "not slow"` leaves them out for everyday work, plain
# `pytest` runs them.
SLOW = {
    "test_bad_inputs.py::test_a_process_answers_like_the_in_process_run",
    "test_bad_inputs.py::test_bombs_are_refused_with_bounded_memory_and_time",
    "test_bad_inputs.py::test_debug_shows_the_traceback_and_the_same_lines",
    "test_charts.py::test_a_four_by_three_deck_size_renders",
    "test_charts.py::test_a_short_bar_chart_keeps_its_labels_on_the_page",
    "test_charts.py::test_an_unwritable_matplotlib_folder_gives_no_warning_and_no_stray_folder",
    "test_charts.py::test_crowded_x_ticks_are_thinned_keeping_the_ends",
    "test_charts.py::test_no_text_is_clipped_or_overlaps",
    "test_charts.py::test_png_is_exactly_the_size_asked_for",
    "test_charts.py::test_the_same_input_gives_the_same_bytes",
    "test_content.py::test_table_and_build_refuse_bad_content_as_check_does",
    "test_cli.py::test_only_deck_and_handout_together",
    "test_cli.py::test_shell_completion",
    "test_custom_slides.py::test_a_picture_cropped_only_with_fit_cover",
    "test_custom_slides.py::test_a_pixel_bomb_in_a_build_stays_in_bounded_memory",
    "test_custom_slides.py::test_a_slide_of_ones_own_takes_a_template_layout_by_name",
    "test_custom_slides.py::test_ten_sources_keep_every_description",
    "test_custom_slides.py::test_the_handout_shows_own_slides_marked_for_it_only_when_they_fit",
    "test_deck.py::test_a_headline_that_cannot_fit_names_its_slide",
    "test_deck.py::test_a_title_that_cannot_fit_names_slide_field_and_line",
    "test_deck.py::test_decks_drawn_one_after_another_in_a_process_are_the_same_bytes",
    "test_deck.py::test_four_by_three",
    "test_dial.py::test_formatted_figures_keep_the_order",
    "test_fuzz.py::test_built_files_at_the_documented_limits_build_or_fail_cleanly",
    "test_fuzz.py::test_built_files_show_the_maths_figures",
    "test_fuzz.py::test_edited_default_text",
    "test_fuzz.py::test_libyaml_reads_as_pyyaml_does",
    "test_fuzz.py::test_mutated_default_content",
    "test_fuzz.py::test_random_yaml_documents",
    "test_fuzz.py::test_valid_extreme_dials",
    "test_handout.py::test_accented_and_greek_letters_print_and_missing_glyphs_warn",
    "test_handout.py::test_back_overflow_names_the_key_and_its_line",
    "test_handout.py::test_front_overflow_names_the_key_and_its_line",
    "test_handout.py::test_no_url_no_qr_code",
    "test_hostile.py::test_a_1_mb_speed_or_check_is_refused_within_seconds",
    "test_hostile.py::test_a_1_mb_value_in_the_content_file_is_refused_within_seconds",
    "test_hostile.py::test_a_sweep_of_100_speeds_peaks_within_20_percent_of_5",
    "test_hostile.py::test_every_file_name_reads_back_as_its_dial",
    "test_hostile.py::test_every_printed_duration_reads_back",
    "test_hostile.py::test_every_printed_speed_reads_back",
    "test_hostile.py::test_template_bombs_are_refused_within_100_mb",
    "test_hostile_messages.py::test_a_build_into_a_closed_pipe_succeeds",
    "test_hostile_messages.py::test_a_build_into_dev_full_succeeds",
    "test_hostile_messages.py::test_a_sweep_into_a_closed_pipe_writes_every_combination",
    "test_hostile_template.py::test_a_background_too_large_to_sample_builds_within_200_mib",
    "test_hostile_template.py::test_a_backslash_in_a_theme_font_name_is_written_as_it_is",
    "test_hostile_template.py::test_a_part_name_that_differs_only_in_case_builds",
    "test_hostile_template.py::test_a_theme_with_a_doctype_naming_an_outside_dtd_builds_without_fetching_it",
    "test_hostile_template.py::test_a_utf16_theme_builds",
    "test_hostile_template.py::test_template_attacks_end_within_200_mib",
    "test_imports.py::test_importtime_log_has_no_renderer",
    "test_imports.py::test_quick_commands_load_no_renderer",
    "test_imports.py::test_the_command_line_library_brings_no_pydantic",
    "test_imports.py::test_the_probe_can_see_an_import",
    "test_language.py::test_labels_reach_the_notes_book",
    "test_lint.py::test_mypy_finds_nothing",  # a whole-program check from a cold cache: 3-4 s
    "test_output.py::test_full_disk_exits_1_and_keeps_the_last_good_files",
    "test_output.py::test_read_only_folder_exits_1_and_keeps_the_last_good_files",
    "test_paths.py::test_a_link_in_the_output_folder_is_replaced_not_written_through",
    "test_paths.py::test_a_read_only_output_folder_exits_1_and_keeps_earlier_files",
    "test_paths.py::test_output_names_never_leave_the_output_folder",
    "test_readme.py::test_the_example_error_is_what_deckgen_prints",
    "test_slides_pdf.py::test_the_notes_book_shows_each_slides_share_of_the_talk",
    "test_sweep.py::test_a_terminal_gets_a_progress_bar",
    "test_transaction.py::test_a_kill_at_every_step_of_the_swap_is_set_right_by_the_next_write",
    "test_transaction.py::test_two_builds_of_different_content_into_one_folder",
    "test_transaction.py::test_two_writers_into_one_folder_never_mix_their_files",
    "test_unicode.py::test_a_character_no_font_draws_is_a_warning_on_the_command_line",
    "test_unicode.py::test_a_console_that_cannot_show_the_text_gets_escapes",
    "test_unicode.py::test_pdffonts_lists_the_fallback_font_as_embedded",
    "test_unicode.py::test_the_deck_shows_the_text",
    "test_unicode.py::test_the_handout_shows_the_text",
}


# Modules whose tests share something costly (a browser, LibreOffice's templates exported,
# template decks and review decks printed, the slide plans at every review dial), by group:
# with `--dist loadgroup` (pyproject addopts) each group runs whole on one xdist worker, so
# what it shares is made once and no worker waits for the other to make it; every other test
# is dealt out on its own. Builds that tests all over the suite share are made once for every
# worker (shared_folder) instead.
GROUPS = {"test_page_browser.py": "browser", "test_templates.py": "libreoffice-templates",
          "test_template_look.py": "libreoffice-templates", "test_deck_fonts.py": "review-decks",
          "test_layout.py": "review-plans",
          # single tests elsewhere that read the review decks or their print
          "test_deck.py::test_libreoffice_prints_one_page_per_slide": "review-decks",
          "test_native_charts.py::test_libreoffice_prints_every_chart": "review-decks",
          "test_schema.py::test_every_review_deck_is_valid": "review-decks"}
# The longest runs first: the grouped modules (each a chain on one worker), then the costliest
# modules by wall seconds, so the run does not end on one long test while the other worker
# idles; the rest keep their order after these.
FIRST = ["test_templates.py", "test_template_look.py", "test_page_browser.py", "test_fuzz.py",
         "test_reproducible.py", "test_deck_fonts.py", "test_chart_pictures.py", "test_deck.py",
         "test_lint.py", "test_hostile.py", "test_sweep.py", "test_language.py",
         "test_preview.py", "test_watch.py", "test_transaction.py", "test_handout.py",
         "test_output.py", "test_unicode.py", "test_bad_inputs.py", "test_native_charts.py",
         "test_charts.py"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark slow every test that builds real files: through a build fixture (`*_build`,
    `*_deck`, taken or named in a parameter), with LibreOffice or a browser, or listed in SLOW.
    Then put the costliest modules first."""
    slow = pytest.mark.slow
    for item in items:
        name = f"{item.path.name}::{item.name.split('[')[0]}"
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec else ()
        named = [*getattr(item, "fixturenames", ()), *params]
        builds = any(isinstance(f, str) and f.endswith(("_build", "_deck")) for f in named)
        heavy = item.get_closest_marker("soffice") or item.get_closest_marker("browser")
        if builds or name in SLOW or heavy:
            item.add_marker(slow)
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))  # stable: module order kept


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`--dist loadgroup` as GROUPS says: each group's modules are one unit of work, every
    other test a unit of its own, dealt out in the collection's order as workers come free.
    (xdist's own groups are named by `xdist_group` marks that it writes into each test's id,
    which pytest 9 no longer lets it change: every test would be dealt out on its own.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module, _, test = nodeid.partition("::")
            name = Path(module).name
            return GROUPS.get(f"{name}::{test.split('[')[0]}", GROUPS.get(name, nodeid))

    return ModuleGroups(config, log)
