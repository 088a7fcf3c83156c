"""`deckgen init`: the starter content file, and never an overwrite without --force."""

from __future__ import annotations

from pathlib import Path

from conftest import DEFAULT_CONTENT, run_in

from deckgen import starter


def test_writes_the_bundled_explainer_and_it_checks_clean(tmp_path: Path) -> None:
    run = run_in("init", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    written = tmp_path / "content.yaml"
    assert written.read_bytes() == DEFAULT_CONTENT.read_bytes()
    assert run.stdout == "wrote content.yaml; edit it, then run: deckgen build content.yaml\n"
    assert run.stderr == ""
    checked = run_in("check", "content.yaml", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["content.yaml"]  # no temporary left behind


def test_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    mine = tmp_path / "talk.yaml"
    mine.write_text("my own talk\n", encoding="utf-8")
    run = run_in("init", str(mine))
    assert run.returncode == 2
    assert run.stderr.splitlines() == [f"{mine}: already exists; pass --force to overwrite it"]
    assert run.stdout == ""
    assert mine.read_text(encoding="utf-8") == "my own talk\n"

    forced = run_in("init", str(mine), "--force")
    assert forced.returncode == 0, forced.stderr
    assert mine.read_bytes() == DEFAULT_CONTENT.read_bytes()


def test_a_folder_gets_content_yaml_inside_and_missing_folders_are_made(tmp_path: Path) -> None:
    assert run_in("init", str(tmp_path)).returncode == 0
    assert (tmp_path / "content.yaml").read_bytes() == DEFAULT_CONTENT.read_bytes()
    deep = tmp_path / "talks" / "2026" / "meetup.yaml"
    assert run_in("init", str(deep)).returncode == 0
    assert deep.read_bytes() == DEFAULT_CONTENT.read_bytes()
    again = run_in("init", str(tmp_path))
    assert again.returncode == 2
    assert (
        again.stderr
        == f"{tmp_path / 'content.yaml'}: already exists; pass --force to overwrite it\n"
    )


def test_a_file_in_the_way_of_the_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "notes"
    blocker.write_text("x", encoding="utf-8")
    run = run_in("init", str(blocker / "content.yaml"))
    assert run.returncode == 2
    assert run.stderr == f"{blocker}: cannot hold a file: it is a file, not a folder\n"
    assert blocker.read_text(encoding="utf-8") == "x"


def test_the_bundled_copy_is_the_explainer() -> None:
    assert starter.bundled().read_bytes() == DEFAULT_CONTENT.read_bytes()


def test_language_de_writes_the_german_talk_and_it_checks_clean(tmp_path: Path) -> None:
    run = run_in("init", "--language", "de", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    written = tmp_path / "content.yaml"
    assert written.read_bytes() == (DEFAULT_CONTENT.parent / "content.de.yaml").read_bytes()
    checked = run_in("check", str(written))
    assert checked.returncode == 0, checked.stderr
    refused = run_in("init", str(tmp_path / "other.yaml"), "--language", "xx")
    assert refused.returncode == 2
    assert refused.stderr.startswith("--language: must be one of en, de")
    assert not (tmp_path / "other.yaml").exists()
